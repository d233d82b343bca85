//! Bad input: a CRD conversion webhook for a kind without an internal (hub) version, so there is
//! nothing for the webhook to convert through.

pub mod gadgets;
