//! The random `serde::Deserializer`: it answers each request a `Deserialize` impl makes with random data
//! of the requested shape, at a depth that bounds how far values nest; and the sequences, maps and
//! enum variants it hands to visitors (serde's `SeqAccess`, `MapAccess`, `EnumAccess` and
//! `VariantAccess` over random content), which recurse into it.

use super::hints::{self, AnyHint};
use super::learn::{Context, Error};
use rand::Rng;
use rand::rngs::StdRng;
use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Expected, Visitor};
use std::cell::Cell;

/// How far past `max_depth` a value may still nest before the attempt fails.
///
/// Past `max_depth` only struct fields, tuples, newtypes and enum variants still nest, so a type that
/// needs this many more levels has no finite value (`struct Loop { next: Box<Loop> }`) or drew a very
/// long chain of recursive enum variants; failing the attempt beats overflowing the stack.
const DEPTH_SLACK: usize = 32;

/// The characters of random strings: lowercase letters, digits and '-', valid in most Kubernetes names.
const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789-";

/// The longest random string.
const MAX_TEXT_LEN: usize = 8;

/// The largest magnitude of a random integer: JSON numbers are often read as f64, which holds
/// integers exactly only up to 2^53.
const MAX_SAFE_INT: i64 = 1 << 53;

/// The deserializer of one value: the attempt's generator, the fill's context and the value's depth.
pub(super) struct Filler<'a> {
    rng: &'a mut StdRng,
    cx: &'a Context,
    depth: usize,
    /// Text that the next string request gets instead of a random string, set for newtypes such as
    /// `Time` whose inner string has a format (see `hints::newtype_text`).
    preset: Option<String>,
    /// Whether this value sits directly inside `Some`, where a value that serializes as JSON null would
    /// read back as `None`; such a value is never null.
    non_null: bool,
}

impl<'a> Filler<'a> {
    pub(super) fn new(rng: &'a mut StdRng, cx: &'a Context) -> Self {
        Self {
            rng,
            cx,
            depth: 0,
            preset: None,
            non_null: false,
        }
    }

    /// A filler for another value at this depth, sharing this one's generator.
    pub(super) fn reborrow(&mut self) -> Filler<'_> {
        Filler {
            rng: &mut *self.rng,
            cx: self.cx,
            depth: self.depth,
            preset: None,
            non_null: false,
        }
    }

    /// This filler one level deeper, for the content of a struct, enum, sequence or map.
    fn enter(self) -> Result<Self, Error> {
        let depth = self.depth + 1;
        if depth > self.cx.options.max_depth + DEPTH_SLACK {
            return Err(de::Error::custom(format_args!(
                "values nest deeper than {depth} levels; the type may have no finite value"
            )));
        }
        Ok(Self {
            depth,
            preset: None,
            non_null: false,
            ..self
        })
    }

    pub(super) fn context(&self) -> &Context {
        self.cx
    }

    /// This filler with `text` as the answer to its next string request.
    pub(super) fn with_preset(self, text: Option<String>) -> Self {
        Self { preset: text, ..self }
    }

    /// Whether this value is as deep as values go: collections are empty and options `None` from here.
    fn at_limit(&self) -> bool {
        self.depth >= self.cx.options.max_depth
    }

    /// The length of a new sequence or map at this depth.
    fn collection_len(&mut self) -> usize {
        if self.at_limit() {
            0
        } else {
            self.rng.random_range(0..=self.cx.options.max_len)
        }
    }

    /// An integer in `lo..=hi`: half the time a small one near zero, where boundary bugs live, and
    /// otherwise anywhere in the range.
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        if self.rng.random_bool(0.5) {
            self.rng.random_range(lo.max(-16)..=hi.min(16))
        } else {
            self.rng.random_range(lo..=hi)
        }
    }

    /// A finite float that prints and parses back exactly: a multiple of 1/256 below a million.
    fn float(&mut self) -> f64 {
        f64::from(self.rng.random_range(-256_000_000..=256_000_000)) / 256.0
    }

    /// A short random string from [`ALPHABET`].
    pub(super) fn text(&mut self) -> String {
        let len = self.rng.random_range(0..=MAX_TEXT_LEN);
        (0..len).map(|_| self.char()).collect()
    }

    fn char(&mut self) -> char {
        char::from(ALPHABET[self.rng.random_range(0..ALPHABET.len())])
    }

    fn bytes(&mut self) -> Vec<u8> {
        let len = self.rng.random_range(0..=MAX_TEXT_LEN);
        (0..len).map(|_| self.rng.random()).collect()
    }

    /// The text for a string request: the preset if there is one, else what the visitor's `expecting`
    /// asks for (a timestamp, base64), else a random string.
    fn string_for(&mut self, expecting: &str) -> String {
        match self.preset.take() {
            Some(text) => text,
            None => hints::string_text(expecting, self.rng).unwrap_or_else(|| self.text()),
        }
    }
}

/// What a visitor says it expects, e.g. "struct Pod" or "IntOrString"; hints and flattened structs key on it.
fn expecting<'de, V: Visitor<'de>>(visitor: &V) -> String {
    (visitor as &dyn Expected).to_string()
}

/// Integer requests: each type's full range, capped at ±2^53. The `as` casts are exact because the
/// value lies within the target type's bounds.
macro_rules! fill_ints {
    ($($method:ident => $visit:ident($ty:ty, $lo:expr, $hi:expr);)*) => {$(
        fn $method<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
            let value = self.int($lo, $hi);
            visitor.$visit(value as $ty)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Filler<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        if let Some(text) = self.preset.take() {
            return visitor.visit_string(text);
        }
        // Self-describing requests come from unions that accept only some shapes; a hint picks one they take.
        match hints::any_hint(&expecting(&visitor)) {
            Some(AnyHint::IntOrString) if self.rng.random_bool(0.5) => {
                let value = self.int(i32::MIN.into(), i32::MAX.into());
                return visitor.visit_i64(value);
            }
            Some(AnyHint::IntOrString) => return visitor.visit_string(self.text()),
            Some(AnyHint::Bool) => return self.deserialize_bool(visitor),
            Some(AnyHint::Seq) => return self.deserialize_seq(visitor),
            None => {}
        }
        // Otherwise a JSON-like value. Containers only come up above the depth limit, so a recursive
        // value such as `serde_json::Value` ends, and null never comes up inside `Some`.
        let first = if self.non_null { 1 } else { 0 };
        let end = if self.at_limit() { 5 } else { 7 };
        match self.rng.random_range(first..end) {
            0 => visitor.visit_unit(),
            1 => visitor.visit_bool(self.rng.random()),
            2 => visitor.visit_i64(self.int(-MAX_SAFE_INT, MAX_SAFE_INT)),
            3 => visitor.visit_f64(self.float()),
            4 => visitor.visit_string(self.text()),
            5 => self.deserialize_seq(visitor),
            _ => {
                // JSON object keys are strings, so this map's keys are random strings whatever the
                // visitor would accept.
                let len = self.collection_len();
                visitor.visit_map(RandomMap::with_text_keys(self.enter()?, len))
            }
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_bool(self.rng.random())
    }

    fill_ints! {
        deserialize_i8 => visit_i8(i8, i8::MIN.into(), i8::MAX.into());
        deserialize_i16 => visit_i16(i16, i16::MIN.into(), i16::MAX.into());
        deserialize_i32 => visit_i32(i32, i32::MIN.into(), i32::MAX.into());
        deserialize_i64 => visit_i64(i64, -MAX_SAFE_INT, MAX_SAFE_INT);
        deserialize_i128 => visit_i128(i128, -MAX_SAFE_INT, MAX_SAFE_INT);
        deserialize_u8 => visit_u8(u8, 0, u8::MAX.into());
        deserialize_u16 => visit_u16(u16, 0, u16::MAX.into());
        deserialize_u32 => visit_u32(u32, 0, u32::MAX.into());
        deserialize_u64 => visit_u64(u64, 0, MAX_SAFE_INT);
        deserialize_u128 => visit_u128(u128, 0, MAX_SAFE_INT);
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // The numerator fits f32's 24-bit mantissa, so the `as` is exact and the value is a multiple of
        // 1/256 below 65536 that prints and parses back exactly.
        let numerator = self.rng.random_range(-(1 << 24)..=(1 << 24));
        visitor.visit_f32(numerator as f32 / 256.0)
    }

    fn deserialize_f64<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_f64(self.float())
    }

    fn deserialize_char<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_char(self.char())
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        let text = self.string_for(&expecting(&visitor));
        visitor.visit_string(text)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_byte_buf(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_byte_buf(self.bytes())
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // Inside another `Some`, `None` would serialize as the outer option's null and read back as
        // the outer `None`, so only `Some` survives JSON there.
        if !self.non_null && (self.at_limit() || self.rng.random_bool(self.cx.options.none_chance)) {
            visitor.visit_none()
        } else {
            visitor.visit_some(Filler { non_null: true, ..self })
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, Error> {
        // A newtype serializes as its inner value, so the inner value inherits `non_null`.
        let non_null = self.non_null;
        let mut inner = self.enter()?;
        inner.preset = hints::newtype_text(name, inner.rng);
        inner.non_null = non_null;
        visitor.visit_newtype_struct(inner)
    }

    fn deserialize_seq<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        let len = self.collection_len();
        visitor.visit_seq(RandomSeq::new(self.enter()?, len))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(RandomSeq::new(self.enter()?, len))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        // serde's derive asks a struct with a `#[serde(flatten)]` field for a map, not a struct, and
        // passes no field names; its visitor still expects "struct Name", which tells the two apart.
        if expecting(&visitor).starts_with("struct ") {
            let last_field = Cell::new(None);
            return visitor.visit_map(FieldMap::object_fields(self.enter()?, &last_field));
        }
        let len = self.collection_len();
        visitor.visit_map(RandomMap::new(self.enter()?, len))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        // A visitor may check a value after reading it, so its error cannot tell which field was at
        // fault; the map records the field it sent last, and the error is tagged with it on the way out.
        let last_field = Cell::new(None);
        let fields = FieldMap::struct_fields(self.enter()?, name, fields, &last_field);
        visitor
            .visit_map(fields)
            .map_err(|err| err.at_field(name, last_field.get()))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        if variants.is_empty() {
            return Err(de::Error::custom(format_args!("enum {name} has no variant to choose")));
        }
        let variant = variants[self.rng.random_range(0..variants.len())];
        visitor.visit_enum(RandomEnum::new(self.enter()?, variant))
    }

    fn deserialize_identifier<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_string(self.text())
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

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
