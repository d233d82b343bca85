//! Bad input: a CRD kind whose spec holds `children: Vec<Box<GadgetSpec>>`, a recursive schema a CRD cannot inline.

pub mod gadgets;
