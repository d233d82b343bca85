//! RBAC's escalation check (Kubernetes' `ConfirmNoEscalation` and `Covers`): no one writes a
//! role, or binds one, granting what they do not hold themselves. Each rule asked for is broken
//! into its smallest parts (one verb, one group, one resource, one name or URL); each part must
//! be covered by a rule the author holds, and those that are not are named in the refusal.

use crate::rbac::Rule;
use kube_generic_apiserver::authentication::UserInfo;

/// The rule broken into parts of one verb and one group, resource, name or URL each.
fn breakdown(rule: &Rule) -> Vec<Rule> {
    let one = |v: &String| vec![v.clone()];
    let mut parts = Vec::new();
    for verb in &rule.verbs {
        for group in &rule.api_groups {
            for resource in &rule.resources {
                if rule.resource_names.is_empty() {
                    parts.push(Rule {
                        verbs: one(verb),
                        api_groups: one(group),
                        resources: one(resource),
                        ..Rule::default()
                    });
                }
                for name in &rule.resource_names {
                    parts.push(Rule {
                        verbs: one(verb),
                        api_groups: one(group),
                        resources: one(resource),
                        resource_names: one(name),
                        ..Rule::default()
                    });
                }
            }
        }
        for url in &rule.non_resource_urls {
            parts.push(Rule {
                verbs: one(verb),
                non_resource_urls: one(url),
                ..Rule::default()
            });
        }
    }
    parts
}

fn has(list: &[String], item: &str) -> bool {
    list.iter().any(|x| x == "*" || x == item)
}

/// Whether the owner's resources cover `resource` (`*`, itself, or `*/<subresource>` for a
/// subresource of any resource; `pods` does not cover `pods/log`, as in Kubernetes).
fn resource_covers(owner: &[String], resource: &str) -> bool {
    owner.iter().any(|o| {
        o == "*"
            || o == resource
            || resource
                .split_once('/')
                .is_some_and(|(_, sub)| o.strip_prefix("*/") == Some(sub))
    })
}

/// Whether the owner's URLs cover `url` (`*`, itself, a prefix ending in `*`).
fn url_covers(owner: &[String], url: &str) -> bool {
    owner
        .iter()
        .any(|o| o == url || o.strip_suffix('*').is_some_and(|prefix| url.starts_with(prefix)))
}

/// Whether `owner` covers the single part `part`.
fn rule_covers(owner: &Rule, part: &Rule) -> bool {
    if !part.verbs.iter().all(|v| has(&owner.verbs, v)) {
        return false;
    }
    if !part.non_resource_urls.is_empty() {
        return part
            .non_resource_urls
            .iter()
            .all(|u| url_covers(&owner.non_resource_urls, u));
    }
    part.api_groups.iter().all(|g| has(&owner.api_groups, g))
        && part.resources.iter().all(|r| resource_covers(&owner.resources, r))
        && (owner.resource_names.is_empty()
            || (!part.resource_names.is_empty()
                && part.resource_names.iter().all(|n| owner.resource_names.contains(n))))
}

/// Everything, as cluster-admin holds it: what the aggregationRule of a ClusterRole needs.
pub fn full_authority() -> Vec<Rule> {
    let all = || vec!["*".to_string()];
    vec![
        Rule {
            verbs: all(),
            api_groups: all(),
            resources: all(),
            ..Rule::default()
        },
        Rule {
            verbs: all(),
            non_resource_urls: all(),
            ..Rule::default()
        },
    ]
}

/// The parts of `asked` that none of `held` covers.
pub fn uncovered(held: &[&Rule], asked: &[Rule]) -> Vec<Rule> {
    asked
        .iter()
        .flat_map(breakdown)
        .filter(|part| !held.iter().any(|owner| rule_covers(owner, part)))
        .collect()
}

/// A Go `%q` of a string list: `["a" "b"]`.
fn go_quoted(list: &[String]) -> String {
    let quoted: Vec<String> = list
        .iter()
        .map(|s| kube_apimachinery::validation::go_quote(s))
        .collect();
    format!("[{}]", quoted.join(" "))
}

/// A rule as `rbacv1helpers.CompactString` prints it: its non-empty fields only.
pub fn compact_string(r: &Rule) -> String {
    let mut parts = Vec::new();
    for (name, list) in [
        ("APIGroups", &r.api_groups),
        ("Resources", &r.resources),
        ("NonResourceURLs", &r.non_resource_urls),
        ("ResourceNames", &r.resource_names),
        ("Verbs", &r.verbs),
    ] {
        if !list.is_empty() {
            parts.push(format!("{name}:{}", go_quoted(list)));
        }
    }
    format!("{{{}}}", parts.join(", "))
}

/// Simple parts (one group, one resource, no names or URLs) that differ only in their verb,
/// joined into one rule (Kubernetes' `CompactRules`), so that a refusal lists each resource once.
fn compact(parts: Vec<Rule>) -> Vec<Rule> {
    let simple = |r: &Rule| {
        r.api_groups.len() == 1
            && r.resources.len() == 1
            && r.resource_names.is_empty()
            && r.non_resource_urls.is_empty()
    };
    let mut out: Vec<Rule> = Vec::new();
    for part in parts {
        let same = out
            .iter_mut()
            .find(|r| simple(r) && simple(&part) && r.api_groups == part.api_groups && r.resources == part.resources);
        match same {
            Some(r) => {
                for verb in part.verbs {
                    if !r.verbs.contains(&verb) {
                        r.verbs.push(verb);
                    }
                }
            }
            None => out.push(part),
        }
    }
    out
}

/// Kubernetes' message for an author who asks to grant what they do not hold.
pub fn not_held_message(user: &UserInfo, missing: Vec<Rule>) -> String {
    let mut lines: Vec<String> = compact(missing).iter().map(compact_string).collect();
    lines.sort();
    lines.dedup();
    format!(
        "user {} (groups={}) is attempting to grant RBAC permissions not currently held:\n{}",
        kube_apimachinery::validation::go_quote(&user.username),
        go_quoted(&user.groups),
        lines.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(verbs: &[&str], groups: &[&str], resources: &[&str]) -> Rule {
        let v = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
        Rule {
            verbs: v(verbs),
            api_groups: v(groups),
            resources: v(resources),
            ..Rule::default()
        }
    }

    #[test]
    fn held_rules_cover_their_parts_and_no_more() {
        let held = [
            rule(&["get", "list"], &[""], &["pods", "configmaps"]),
            rule(&["*"], &["apps"], &["*"]),
        ];
        let held: Vec<&Rule> = held.iter().collect();
        assert!(uncovered(&held, &[rule(&["get"], &[""], &["pods"])]).is_empty());
        assert!(uncovered(&held, &[rule(&["delete"], &["apps"], &["deployments/scale"])]).is_empty());
        let missing = uncovered(&held, &[rule(&["get", "delete"], &[""], &["pods", "secrets"])]);
        assert_eq!(missing.len(), 3, "{missing:?}");
        let user = UserInfo {
            username: "alice".into(),
            groups: vec!["dev".into(), "system:authenticated".into()],
            ..UserInfo::default()
        };
        assert_eq!(
            not_held_message(&user, missing),
            "user \"alice\" (groups=[\"dev\" \"system:authenticated\"]) is attempting to grant RBAC permissions \
             not currently held:\n{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"delete\"]}\n\
             {APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\" \"delete\"]}"
        );
    }

    #[test]
    fn names_subresources_and_urls_are_covered_as_kubernetes_covers_them() {
        let mut named = rule(&["get"], &[""], &["configmaps"]);
        named.resource_names = vec!["a".into()];
        let held = [named.clone(), rule(&["get"], &[""], &["*/log", "pods"])];
        let held: Vec<&Rule> = held.iter().collect();
        assert!(uncovered(&held, &[named.clone()]).is_empty());
        assert_eq!(
            uncovered(&held, &[rule(&["get"], &[""], &["configmaps"])]).len(),
            1,
            "a rule for all names is more than one for a name"
        );
        assert!(uncovered(&held, &[rule(&["get"], &[""], &["pods/log"])]).is_empty());
        assert_eq!(
            uncovered(&held, &[rule(&["get"], &[""], &["pods/exec"])]).len(),
            1,
            "pods does not cover its subresources"
        );

        let url = |u: &str| Rule {
            verbs: vec!["get".into()],
            non_resource_urls: vec![u.into()],
            ..Rule::default()
        };
        let held = [url("/apis/*")];
        let held: Vec<&Rule> = held.iter().collect();
        assert!(uncovered(&held, &[url("/apis/apps")]).is_empty());
        assert_eq!(uncovered(&held, &[url("/healthz")]).len(), 1);
        assert_eq!(
            compact_string(&url("/healthz")),
            "{NonResourceURLs:[\"/healthz\"], Verbs:[\"get\"]}"
        );
    }
}
