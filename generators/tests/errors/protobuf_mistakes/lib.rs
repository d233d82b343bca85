//! Bad input: protobuf field numbers and types go-to-protobuf would reject: two fields share a number, a number is reserved, a skipped field has one, a field is a `u8`, and a field names a struct that is no message.

pub mod gadgets;
