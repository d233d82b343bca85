//! Bad input: `+genclient:onlyVerbs` names a verb client-gen does not have (`lst`).

pub mod widgets;
