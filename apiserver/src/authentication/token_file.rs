//! `--token-auth-file`: kube-apiserver's static tokens, one CSV record per line,
//! `token,user,uid,"group1,group2"` (groups optional), read once at start. A malformed line is
//! an error that names the file and line, so the server does not start with half its users.

use std::collections::HashMap;
use std::path::Path;

use async_trait::async_trait;

use super::{TokenAuthenticator, TokenUser, UserInfo};

/// The users of a token file, by token. They know no audiences: wrap the file in
/// [`super::AudienceAgnostic`] to make them good for the API's.
#[derive(Clone, Debug, Default)]
pub struct TokenFile {
    users: HashMap<String, UserInfo>,
}

impl TokenFile {
    /// Reads `path`.
    pub fn read(path: &Path) -> Result<TokenFile, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::parse(&text).map_err(|(line, why)| format!("{}:{line}: {why}", path.display()))
    }

    /// The tokens of a file's text; an error is the line (from 1) and what is wrong.
    pub fn parse(text: &str) -> Result<TokenFile, (usize, String)> {
        let mut users = HashMap::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            if line.trim().is_empty() {
                continue;
            }
            let fields = csv_fields(line).map_err(|why| (number, why))?;
            if fields.len() < 3 {
                return Err((
                    number,
                    format!(
                        "a token line has at least 3 columns (token,user,uid), found {}",
                        fields.len()
                    ),
                ));
            }
            let token = fields[0].trim().to_string();
            if token.is_empty() {
                return Err((number, "the token is empty".into()));
            }
            let groups = fields
                .get(3)
                .map(|g| {
                    g.split(',')
                        .map(str::trim)
                        .filter(|g| !g.is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
            let user = UserInfo {
                username: fields[1].clone(),
                uid: fields[2].clone(),
                groups,
                ..UserInfo::default()
            };
            if users.insert(token, user).is_some() {
                return Err((number, "the token is already on an earlier line".into()));
            }
        }
        Ok(TokenFile { users })
    }

    /// The user `token` stands for.
    pub fn user(&self, token: &str) -> Option<&UserInfo> {
        self.users.get(token)
    }
}

/// The fields of one CSV record: commas separate, double quotes enclose a field that holds
/// commas, and `""` inside quotes is a quote (RFC 4180, as Go's encoding/csv reads it).
fn csv_fields(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        match c {
            '"' if at_start => {
                quoted = true;
                at_start = false;
            }
            '"' if quoted => {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    quoted = false;
                    if !matches!(chars.peek(), None | Some(',')) {
                        return Err("extraneous text after a quoted field".into());
                    }
                }
            }
            '"' => return Err("a bare \" in a field that is not quoted".into()),
            ',' if !quoted => {
                fields.push(std::mem::take(&mut field));
                at_start = true;
            }
            c => {
                field.push(c);
                at_start = false;
            }
        }
    }
    if quoted {
        return Err("a quoted field is not closed".into());
    }
    fields.push(field);
    Ok(fields)
}

#[async_trait]
impl TokenAuthenticator for TokenFile {
    async fn authenticate_token(&self, token: &str, _audiences: &[String]) -> Result<Option<TokenUser>, String> {
        Ok(self.user(token).map(|user| TokenUser {
            user: user.clone(),
            audiences: Vec::new(),
            expires: None,
        }))
    }
}
