//! The sequences, maps and enum variants that the filler hands to visitors: serde's `SeqAccess`,
//! `MapAccess`, `EnumAccess` and `VariantAccess` over random content.

use super::fill::Filler;
use super::learn::Error;
use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Visitor};
use std::cell::Cell;

/// The top-level fields of the Kubernetes kinds (k8s-openapi 1.37) besides `apiVersion` and `kind`,
/// the keys offered to a struct that asks for a map because it has a flattened field.
///
/// serde's derive turns a struct with a `#[serde(flatten)]` field into a map visitor that matches keys by
/// name and buffers the rest for the flattened fields; it passes no field list and accepts any key, so
/// no request the deserializer sees names the struct's own fields. The generated Kubernetes kinds flatten
/// `type_meta: Option<TypeMeta>` beside `metadata`, `spec`, `status`, `items` and the like, so offering
/// those names fills them. Keys a struct does not know are buffered and dropped by serde, and
/// `apiVersion` and `kind` are left out so `TypeMeta` stays empty, as apimachinery's fuzzer keeps it.
#[rustfmt::skip] // A table: one name a line would spread it over seventy lines.
const OBJECT_FIELDS: &[&str] = &[
    "metadata", "spec", "status", "items", "action", "addressType", "aggregationRule",
    "allowVolumeExpansion", "allowedTopologies", "automountServiceAccountToken", "binaryData",
    "capacity", "code", "conditions", "count", "data", "deleteOptions", "deprecatedCount",
    "deprecatedFirstTimestamp", "deprecatedLastTimestamp", "deprecatedSource", "description",
    "details", "driverName", "endpoints", "eventTime", "firstTimestamp", "globalDefault",
    "groupVersion", "groups", "handler", "imagePullSecrets", "immutable", "involvedObject",
    "lastTimestamp", "maximumVolumeSize", "message", "mountOptions", "name", "nodeTopology", "note",
    "overhead", "parameters", "ports", "preemptionPolicy", "preferredVersion", "provisioner",
    "reason", "reclaimPolicy", "regarding", "related", "reportingComponent", "reportingController",
    "reportingInstance", "resources", "revision", "roleRef", "rules", "scheduling", "secrets",
    "series", "serverAddressByClientCIDRs", "source", "storageClassName", "stringData", "subjects",
    "subsets", "target", "template", "type", "value", "versions", "volumeBindingMode", "webhooks",
];

/// A sequence (or tuple) of `remaining` random elements.
pub(super) struct RandomSeq<'a> {
    filler: Filler<'a>,
    remaining: usize,
}

impl<'a> RandomSeq<'a> {
    pub(super) fn new(filler: Filler<'a>, len: usize) -> Self {
        Self { filler, remaining: len }
    }
}

impl<'de> de::SeqAccess<'de> for RandomSeq<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        seed.deserialize(self.filler.reborrow()).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining)
    }
}

/// A map of `remaining` random entries. Duplicate keys are the visitor's business, as they are in JSON.
pub(super) struct RandomMap<'a> {
    filler: Filler<'a>,
    remaining: usize,
    /// Whether keys are random strings rather than whatever the key type's `Deserialize` asks for.
    text_keys: bool,
}

impl<'a> RandomMap<'a> {
    /// A map whose keys come from the key type's own `Deserialize`, like its values.
    pub(super) fn new(filler: Filler<'a>, len: usize) -> Self {
        Self {
            filler,
            remaining: len,
            text_keys: false,
        }
    }

    /// A map with string keys, for a self-describing value that stands for a JSON object.
    pub(super) fn with_text_keys(filler: Filler<'a>, len: usize) -> Self {
        Self {
            filler,
            remaining: len,
            text_keys: true,
        }
    }
}

impl<'de> de::MapAccess<'de> for RandomMap<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        if self.text_keys {
            let key = self.filler.text();
            seed.deserialize(StringDeserializer::<Error>::new(key)).map(Some)
        } else {
            seed.deserialize(self.filler.reborrow()).map(Some)
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(self.filler.reborrow())
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining)
    }
}

/// A struct's content: each field name in turn, each with a random value, so required fields are present.
pub(super) struct FieldMap<'a> {
    filler: Filler<'a>,
    /// The struct's name as given to `deserialize_struct`, which keys the texts learned for its fields.
    struct_name: Option<&'static str>,
    keys: std::vec::IntoIter<&'static str>,
    /// The key sent last, read by the caller when the visitor fails.
    last: &'a Cell<Option<&'static str>>,
}

impl<'a> FieldMap<'a> {
    /// The fields a `deserialize_struct` request listed, less those known to be aliases of each other.
    pub(super) fn struct_fields(
        filler: Filler<'a>,
        struct_name: &'static str,
        fields: &'static [&'static str],
        last: &'a Cell<Option<&'static str>>,
    ) -> Self {
        let duplicated = &filler.context().duplicated;
        let keys: Vec<_> = fields
            .iter()
            .copied()
            .filter(|name| !duplicated.contains(name))
            .collect();
        Self {
            filler,
            struct_name: Some(struct_name),
            keys: keys.into_iter(),
            last,
        }
    }

    /// The keys for a struct that asked for a map: [`OBJECT_FIELDS`] and every field reported missing
    /// by an earlier attempt, each once so that no known field arrives twice.
    pub(super) fn object_fields(filler: Filler<'a>, last: &'a Cell<Option<&'static str>>) -> Self {
        let mut keys = OBJECT_FIELDS.to_vec();
        for &name in &filler.context().missing {
            if !keys.contains(&name) {
                keys.push(name);
            }
        }
        Self {
            filler,
            struct_name: None,
            keys: keys.into_iter(),
            last,
        }
    }
}

impl<'de> de::MapAccess<'de> for FieldMap<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some(name) = self.keys.next() else {
            return Ok(None);
        };
        self.last.set(Some(name));
        seed.deserialize(BorrowedStrDeserializer::<Error>::new(name)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let wanted = match (self.struct_name, self.last.get()) {
            (Some(ty), Some(field)) => self.filler.context().wanted_text(ty, field).map(str::to_owned),
            _ => None,
        };
        seed.deserialize(self.filler.reborrow().with_preset(wanted))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.keys.len())
    }
}

/// One enum variant, chosen by the filler; the visitor's call decides whether it is a unit, newtype,
/// tuple or struct variant.
pub(super) struct RandomEnum<'a> {
    filler: Filler<'a>,
    variant: &'static str,
}

impl<'a> RandomEnum<'a> {
    pub(super) fn new(filler: Filler<'a>, variant: &'static str) -> Self {
        Self { filler, variant }
    }
}

impl<'de, 'a> de::EnumAccess<'de> for RandomEnum<'a> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let variant = seed.deserialize(BorrowedStrDeserializer::<Error>::new(self.variant))?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for RandomEnum<'_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self.filler)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_tuple(self.filler, len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_struct(self.filler, self.variant, fields, visitor)
    }
}
