//! Options kinds from URL query parameters, as apimachinery decodes them
//! (`+k8s:conversion-gen:explicit-from=net/url.Values`): `?follow=true&tailLines=10` becomes a
//! `PodLogOptions`. Generated code reads each field by its JSON name with [`parameter`]; the rules
//! are Go's `Convert_Slice_string_To_*`: an absent or empty parameter is the zero value, the first
//! value counts, a boolean is false only for `0` and `false`, a list takes every value.

use std::collections::BTreeMap;

use thiserror::Error;

/// Query parameters, each name with its values in order (Go's `url.Values`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Values(BTreeMap<String, Vec<String>>);

impl Values {
    /// Parses a query string (`a=1&b=x%20y&a=2`), percent-decoding names and values.
    pub fn parse(query: &str) -> Self {
        let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (k, v) in form_urlencoded::parse(query.trim_start_matches('?').as_bytes()) {
            map.entry(k.into_owned()).or_default().push(v.into_owned());
        }
        Values(map)
    }

    /// The values of one parameter, empty when it is absent.
    pub fn get(&self, name: &str) -> &[String] {
        self.0.get(name).map_or(&[], Vec::as_slice)
    }

    /// Adds a value to a parameter.
    pub fn add(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.0.entry(name.into()).or_default().push(value.into());
    }
}

/// A query parameter that does not decode as its field's type.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid value {value:?} for query parameter {parameter:?}: {reason}")]
pub struct QueryError {
    /// The parameter's name.
    pub parameter: String,
    /// The value that did not decode.
    pub value: String,
    /// Why.
    pub reason: String,
}

/// A kind decoded from query parameters; generated for `+k8s:conversion-gen:explicit-from=net/url.Values`.
pub trait FromQuery: Sized {
    /// The object the parameters describe.
    fn from_query(values: &Values) -> Result<Self, QueryError>;

    /// The object a query string describes.
    fn from_query_str(query: &str) -> Result<Self, QueryError> {
        Self::from_query(&Values::parse(query))
    }
}

/// A field type read from the values of one query parameter, which are never empty here.
pub trait Parameter: Sized {
    /// The value of the field; the error is the reason.
    fn from_values(values: &[String]) -> Result<Self, String>;
}

/// The field read from the parameter `name`: the type's zero value when the parameter is absent
/// or has no values.
pub fn parameter<T: Parameter + Default>(values: &Values, name: &str) -> Result<T, QueryError> {
    let given = values.get(name);
    if given.is_empty() {
        return Ok(T::default());
    }
    T::from_values(given).map_err(|reason| QueryError {
        parameter: name.to_string(),
        value: given[0].clone(),
        reason,
    })
}

/// A field of a type with a JSON string form (a string enum, a Time), read from the first value.
pub fn parameter_json<T: serde::de::DeserializeOwned + Default>(values: &Values, name: &str) -> Result<T, QueryError> {
    let given = values.get(name);
    let Some(first) = given.first() else {
        return Ok(T::default());
    };
    serde_json::from_value(serde_json::Value::String(first.clone())).map_err(|e| QueryError {
        parameter: name.to_string(),
        value: first.clone(),
        reason: e.to_string(),
    })
}

impl Parameter for String {
    fn from_values(values: &[String]) -> Result<Self, String> {
        Ok(values[0].clone())
    }
}

impl Parameter for bool {
    /// Go's rule: only `0` and `false` (any case) are false; any other value, even empty, is true.
    fn from_values(values: &[String]) -> Result<Self, String> {
        let v = &values[0];
        Ok(!(v == "0" || v.eq_ignore_ascii_case("false")))
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl Parameter for $t {
            fn from_values(values: &[String]) -> Result<Self, String> {
                values[0].parse().map_err(|e: <$t as std::str::FromStr>::Err| e.to_string())
            }
        }
    )*};
}

numbers!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

macro_rules! number_lists {
    ($($t:ty),*) => {$(
        /// Go's `Convert_Slice_string_To_Slice_int32`: several parameters, or one with a comma
        /// list (`ports=80,443`), as port forwarding sends them.
        impl Parameter for Vec<$t> {
            fn from_values(values: &[String]) -> Result<Self, String> {
                values
                    .iter()
                    .flat_map(|v| v.split(','))
                    .filter(|v| !v.is_empty())
                    .map(|v| v.trim().parse().map_err(|e: <$t as std::str::FromStr>::Err| e.to_string()))
                    .collect()
            }
        }
    )*};
}

number_lists!(i32, i64, u16, u32);

impl Parameter for Vec<String> {
    fn from_values(values: &[String]) -> Result<Self, String> {
        Ok(values.to_vec())
    }
}

impl<T: Parameter> Parameter for Option<T> {
    fn from_values(values: &[String]) -> Result<Self, String> {
        T::from_values(values).map(Some)
    }
}

impl<T: Parameter> Parameter for Box<T> {
    fn from_values(values: &[String]) -> Result<Self, String> {
        T::from_values(values).map(Box::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_decodes_as_go_does() {
        let v = Values::parse("?follow=true&tailLines=10&container=a%20b&command=ls&command=-l&stdin=&tty=0");
        assert_eq!(v.get("command"), ["ls", "-l"]);
        assert_eq!(parameter::<bool>(&v, "follow"), Ok(true));
        assert_eq!(
            parameter::<bool>(&v, "stdin"),
            Ok(true),
            "an empty value is true, as in Go"
        );
        assert_eq!(parameter::<bool>(&v, "tty"), Ok(false));
        assert_eq!(parameter::<bool>(&v, "absent"), Ok(false));
        assert_eq!(parameter::<Option<i64>>(&v, "tailLines"), Ok(Some(10)));
        assert_eq!(parameter::<Option<i64>>(&v, "absent"), Ok(None));
        assert_eq!(parameter::<String>(&v, "container").as_deref(), Ok("a b"));
        assert_eq!(
            parameter::<Vec<String>>(&v, "command"),
            Ok(vec!["ls".to_string(), "-l".to_string()])
        );
        let ports = Values::parse("ports=80,443&ports=8080");
        assert_eq!(parameter::<Vec<i32>>(&ports, "ports"), Ok(vec![80, 443, 8080]));
        let bad = parameter::<i32>(&Values::parse("limitBytes=lots"), "limitBytes").unwrap_err();
        assert_eq!(
            bad.to_string(),
            "invalid value \"lots\" for query parameter \"limitBytes\": invalid digit found in string"
        );
        let time: Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::Time> =
            parameter_json(&Values::parse("sinceTime=2024-01-02T03:04:05Z"), "sinceTime").unwrap();
        assert!(time.is_some());
    }
}
