//! Forgotten: mod.rs has no `mod extra;`.

/// Gizmo was meant to be a type of v1.
/// +k8s:deepcopy-gen=true
pub struct Gizmo {
    /// A name.
    pub name: String,
}
