//! Fields that Go holds as values and Rust as `Option`s (`+k8s:zeroIsUnset`): read from JSON, a
//! zero is unset, as Go reads `"hostIP": ""` into the empty string that means unset (defaults
//! apply, `omitempty` leaves it out of the answer). The protobuf side is
//! [`crate::protobuf::GoValue`].
//!
//! ```
//! #[derive(serde::Deserialize)]
//! struct Port {
//!     #[serde(default, deserialize_with = "kube_apimachinery::go_value::deserialize")]
//!     host_ip: Option<String>,
//! }
//! let port: Port = serde_json::from_str(r#"{"host_ip": ""}"#).unwrap();
//! assert_eq!(port.host_ip, None);
//! ```

use serde::{Deserialize, Deserializer};

/// `deserialize_with` for such a field: `null`, absent and the zero value are `None`.
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default + PartialEq,
{
    Ok(Option::<T>::deserialize(deserializer)?.filter(|v| *v != T::default()))
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Fields {
        #[serde(default, deserialize_with = "super::deserialize")]
        text: Option<String>,
        #[serde(default, deserialize_with = "super::deserialize")]
        flag: Option<bool>,
        #[serde(default, deserialize_with = "super::deserialize")]
        number: Option<i32>,
    }

    fn read(json: &str) -> (Option<String>, Option<bool>, Option<i32>) {
        let f: Fields = serde_json::from_str(json).unwrap();
        (f.text, f.flag, f.number)
    }

    #[test]
    fn zeros_nulls_and_absent_fields_are_unset() {
        assert_eq!(read(r#"{"text": "", "flag": false, "number": 0}"#), (None, None, None));
        assert_eq!(read(r#"{"text": null, "flag": null}"#), (None, None, None));
        assert_eq!(read("{}"), (None, None, None));
    }

    #[test]
    fn other_values_are_set() {
        assert_eq!(
            read(r#"{"text": "10.0.0.1", "flag": true, "number": -1}"#),
            (Some("10.0.0.1".into()), Some(true), Some(-1))
        );
    }
}
