//! Bad input: v1 is tagged `+k8s:prerelease-lifecycle-gen=true` but its kind `Widget` has no
//! `+k8s:prerelease-lifecycle-gen:introduced` tag.

pub mod widgets;
