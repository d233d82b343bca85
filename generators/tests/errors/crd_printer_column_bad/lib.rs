//! Bad input: two mistakes in the printer columns of one kind: `jsonPath=.spec.replicaz` names no field, and `type=int` is not a column type.

pub mod gadgets;
