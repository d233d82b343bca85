//! The verbs of client-gen's typed clients: one enum, the names tags spell them with, and which
//! of them custom methods may use.

/// A verb of client-gen's generated clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verb {
    /// `create`.
    Create,
    /// `update`.
    Update,
    /// `updateStatus`.
    UpdateStatus,
    /// `delete`.
    Delete,
    /// `deleteCollection`.
    DeleteCollection,
    /// `get`.
    Get,
    /// `list`.
    List,
    /// `watch`.
    Watch,
    /// `patch`.
    Patch,
    /// `apply`.
    Apply,
    /// `applyStatus`.
    ApplyStatus,
}

impl Verb {
    /// Every verb's tag name, in client-gen's order: what `onlyVerbs`, `skipVerbs` and a
    /// method's `verb=` accept.
    pub const NAMES: [&'static str; 11] = [
        "create",
        "update",
        "updateStatus",
        "delete",
        "deleteCollection",
        "get",
        "list",
        "watch",
        "patch",
        "apply",
        "applyStatus",
    ];

    /// Every verb, in client-gen's order (`SupportedVerbs`).
    pub const ALL: [Verb; 11] = [
        Verb::Create,
        Verb::Update,
        Verb::UpdateStatus,
        Verb::Delete,
        Verb::DeleteCollection,
        Verb::Get,
        Verb::List,
        Verb::Watch,
        Verb::Patch,
        Verb::Apply,
        Verb::ApplyStatus,
    ];

    /// The verbs of `+genclient:readonly`.
    pub const READONLY: [Verb; 3] = [Verb::Get, Verb::List, Verb::Watch];

    /// The name tags use: `updateStatus`.
    pub fn as_str(self) -> &'static str {
        Verb::NAMES[self as usize]
    }

    /// The verb a tag names.
    pub fn parse(s: &str) -> Option<Verb> {
        Verb::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// Whether a custom `+genclient:method=` may use the verb: client-gen has no custom
    /// updateStatus, deleteCollection, watch or delete.
    pub fn is_custom_method_verb(self) -> bool {
        !matches!(
            self,
            Verb::UpdateStatus | Verb::DeleteCollection | Verb::Watch | Verb::Delete
        )
    }

    /// Whether a custom method of the verb takes `input=`: create, update and apply.
    pub fn takes_input(self) -> bool {
        matches!(self, Verb::Create | Verb::Update | Verb::Apply)
    }

    /// Whether a custom method of the verb takes `result=`: create, update, get, list, patch
    /// and apply.
    pub fn takes_result(self) -> bool {
        matches!(
            self,
            Verb::Create | Verb::Update | Verb::Get | Verb::List | Verb::Patch | Verb::Apply
        )
    }

    /// Whether the verb sends an apply configuration (`apply`, `applyStatus`).
    pub fn is_apply(self) -> bool {
        matches!(self, Verb::Apply | Verb::ApplyStatus)
    }

    /// Whether the verb writes the status subresource.
    pub fn is_status(self) -> bool {
        matches!(self, Verb::UpdateStatus | Verb::ApplyStatus)
    }
}

#[cfg(test)]
mod tests {
    use super::Verb;

    #[test]
    fn names_and_verbs_agree() {
        for (i, v) in Verb::ALL.into_iter().enumerate() {
            assert_eq!(v as usize, i);
            assert_eq!(Verb::parse(v.as_str()), Some(v));
        }
        assert_eq!(Verb::parse("Get"), None);
        assert!(Verb::READONLY.iter().all(|v| Verb::ALL.contains(v)));
    }
}
