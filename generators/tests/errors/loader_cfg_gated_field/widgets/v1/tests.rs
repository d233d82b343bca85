//! Never compiled into the crate, so never read: its bad tag is no error.

/// +k8s:deepcopy-gen=maybe
pub struct Ignored;
