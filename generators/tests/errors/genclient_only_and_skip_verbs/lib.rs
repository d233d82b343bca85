//! Bad input: `+genclient:onlyVerbs` and `+genclient:skipVerbs` on one kind: two lists for one set of verbs.

pub mod widgets;
