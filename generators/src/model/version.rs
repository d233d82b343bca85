//! API versions as Kubernetes reads them: the internal (hub) version, GA (`v1`), beta (`v1beta2`)
//! and alpha (`v2alpha1`), and the one priority order every generator and the Scheme agree on
//! (apimachinery's `CompareKubeAwareVersionStrings`): GA before beta before alpha, higher major
//! first, then higher minor.

use std::cmp::Ordering;
use std::fmt;

/// The version name of a group's internal (hub) package.
pub const INTERNAL_VERSION: &str = "__internal";

/// How stable a version is, with its numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// The group's internal version (`__internal`), never served.
    Internal,
    /// `v<major>`.
    Ga {
        /// The major number.
        major: u32,
    },
    /// `v<major>beta<minor>`.
    Beta {
        /// The major number.
        major: u32,
        /// The beta number.
        minor: u32,
    },
    /// `v<major>alpha<minor>`.
    Alpha {
        /// The major number.
        major: u32,
        /// The alpha number.
        minor: u32,
    },
}

/// A package's API version: its name and what the name means.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    name: String,
    level: Level,
}

impl Version {
    /// The internal version.
    pub fn internal() -> Self {
        Version {
            name: INTERNAL_VERSION.to_string(),
            level: Level::Internal,
        }
    }

    /// Parses a Kubernetes version name (`v1`, `v1beta2`, `v2alpha1`); numbers have no leading zero.
    pub fn parse(name: &str) -> Option<Self> {
        let rest = name.strip_prefix('v')?;
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let major = number(&rest[..digits])?;
        let tail = &rest[digits..];
        let level = if tail.is_empty() {
            Level::Ga { major }
        } else if let Some(m) = tail.strip_prefix("beta") {
            Level::Beta {
                major,
                minor: number(m)?,
            }
        } else if let Some(m) = tail.strip_prefix("alpha") {
            Level::Alpha {
                major,
                minor: number(m)?,
            }
        } else {
            return None;
        };
        Some(Version {
            name: name.to_string(),
            level,
        })
    }

    /// The version as written: `v1beta2`, or `__internal`.
    pub fn as_str(&self) -> &str {
        &self.name
    }

    /// Whether this is the internal (hub) version.
    pub fn is_internal(&self) -> bool {
        self.level == Level::Internal
    }

    /// Whether this is a pre-release (beta or alpha) version.
    pub fn is_prerelease(&self) -> bool {
        matches!(self.level, Level::Beta { .. } | Level::Alpha { .. })
    }

    /// The sort key of Kubernetes' priority: lower sorts first.
    fn priority_key(&self) -> (u8, u32, u32) {
        match self.level {
            Level::Ga { major } => (0, u32::MAX - major, 0),
            Level::Beta { major, minor } => (1, u32::MAX - major, u32::MAX - minor),
            Level::Alpha { major, minor } => (2, u32::MAX - major, u32::MAX - minor),
            Level::Internal => (3, 0, 0),
        }
    }
}

/// A decimal number without a leading zero.
fn number(s: &str) -> Option<u32> {
    if s.is_empty() || s.starts_with('0') || !s.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl Ord for Version {
    /// Kubernetes' version priority: the preferred version sorts first; the internal version last.
    fn cmp(&self, other: &Self) -> Ordering {
        self.priority_key()
            .cmp(&other.priority_key())
            .then_with(|| self.name.cmp(&other.name))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq<str> for Version {
    fn eq(&self, other: &str) -> bool {
        self.name == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kubernetes_version_names() {
        assert_eq!(Version::parse("v1").unwrap().level, Level::Ga { major: 1 });
        assert_eq!(
            Version::parse("v1beta2").unwrap().level,
            Level::Beta { major: 1, minor: 2 }
        );
        assert_eq!(
            Version::parse("v2alpha1").unwrap().level,
            Level::Alpha { major: 2, minor: 1 }
        );
        for bad in [
            "v0", "v01", "v1beta", "v1beta0", "v1gamma1", "1", "v", "apps", "v1beta01",
        ] {
            assert!(Version::parse(bad).is_none(), "{bad}");
        }
        assert!(Version::internal().is_internal());
        assert!(!Version::parse("v1").unwrap().is_prerelease());
        assert!(Version::parse("v1beta1").unwrap().is_prerelease());
    }

    #[test]
    fn priority_follows_kubernetes() {
        let mut v: Vec<Version> = [
            "v1alpha1",
            "v1beta1",
            "v2",
            "v1",
            "v1beta2",
            "v10alpha3",
            "v11alpha2",
            "v11beta2",
            "v10beta3",
            "v3beta1",
            "v12alpha1",
        ]
        .iter()
        .map(|n| Version::parse(n).unwrap())
        .collect();
        v.push(Version::internal());
        v.sort();
        let names: Vec<&str> = v.iter().map(Version::as_str).collect();
        assert_eq!(
            names,
            [
                "v2",
                "v1",
                "v11beta2",
                "v10beta3",
                "v3beta1",
                "v1beta2",
                "v1beta1",
                "v12alpha1",
                "v11alpha2",
                "v10alpha3",
                "v1alpha1",
                "__internal"
            ]
        );
    }
}
