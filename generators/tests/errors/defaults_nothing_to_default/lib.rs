//! Bad input: v1 is tagged `+k8s:defaulter-gen=TypeMeta` but has no set_defaults_* function and no
//! `+default` marker, so the tag would do nothing.

pub mod widgets;
