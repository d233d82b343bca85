//! `--audit-log-path`: audit events as JSON lines, rotated by size as kube-apiserver rotates them
//! (lumberjack): past `--audit-log-maxsize` megabytes the file is renamed to
//! `<name>-<UTC time>.<ext>` and a new one started; `--audit-log-maxbackup` old files are kept
//! (all when 0) and those older than `--audit-log-maxage` days removed (none when 0). `-` writes
//! to standard output.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// Where events go and when files rotate.
#[derive(Clone, Debug, Default)]
pub struct LogOptions {
    /// The log file; `-` is standard output.
    pub path: PathBuf,
    /// The size past which the file rotates, in bytes (0: never).
    pub max_size: u64,
    /// Rotated files kept (0: all).
    pub max_backups: usize,
    /// Rotated files older than this are removed (none: kept whatever their age).
    pub max_age: Option<Duration>,
}

struct Open {
    file: File,
    size: u64,
}

/// The audit log.
pub struct AuditLog {
    options: LogOptions,
    open: Mutex<Option<Open>>,
}

impl std::fmt::Debug for AuditLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditLog").field("options", &self.options).finish()
    }
}

fn open(path: &Path) -> std::io::Result<Open> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    // Events name users and carry bodies: the owner alone reads them (kube-apiserver's modes).
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    }
    let file = OpenOptions::new().create(true).append(true).mode(0o600).open(path)?;
    let size = file.metadata()?.len();
    Ok(Open { file, size })
}

impl AuditLog {
    /// The log of `options`, its file opened (and its directory made) now, so that a path that
    /// cannot be written stops the server at start.
    pub fn new(options: LogOptions) -> std::io::Result<AuditLog> {
        let opened = if options.path.as_os_str() == "-" {
            None
        } else {
            Some(open(&options.path)?)
        };
        Ok(AuditLog {
            options,
            open: Mutex::new(opened),
        })
    }

    /// Writes one event line, rotating first when it would pass the size limit.
    pub fn write(&self, line: &[u8]) {
        let mut guard = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let Some(current) = guard.as_mut() else {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(line).and_then(|()| out.write_all(b"\n"));
            return;
        };
        let length = line.len() as u64 + 1;
        if self.options.max_size > 0 && current.size > 0 && current.size + length > self.options.max_size {
            match self.rotate() {
                Ok(fresh) => *current = fresh,
                Err(e) => tracing::error!(error = %e, "rotating the audit log failed"),
            }
        }
        let result = current
            .file
            .write_all(line)
            .and_then(|()| current.file.write_all(b"\n"));
        match result {
            Ok(()) => current.size += length,
            Err(e) => tracing::error!(error = %e, "writing the audit log failed"),
        }
    }

    /// Renames the file to its backup name, opens a new one and removes backups past the limits.
    fn rotate(&self) -> std::io::Result<Open> {
        let path = &self.options.path;
        let now = k8s_openapi::jiff::Timestamp::now();
        let stamp = now.strftime("%Y-%m-%dT%H-%M-%S%.3f").to_string();
        let (stem, ext) = name_parts(path);
        let mut backup = path.with_file_name(format!("{stem}-{stamp}{ext}"));
        // Two rotations within a millisecond: keep both.
        let mut n = 1;
        while backup.exists() {
            backup = path.with_file_name(format!("{stem}-{stamp}-{n}{ext}"));
            n += 1;
        }
        std::fs::rename(path, &backup)?;
        self.prune();
        open(path)
    }

    /// The backups of this log, oldest first.
    pub fn backups(&self) -> Vec<PathBuf> {
        let path = &self.options.path;
        let (stem, ext) = name_parts(path);
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut found: Vec<(SystemTime, PathBuf)> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with(&format!("{stem}-")) && name.ends_with(&ext) && e.path() != *path
            })
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .collect();
        found.sort();
        found.into_iter().map(|(_, p)| p).collect()
    }

    fn prune(&self) {
        let mut backups = self.backups();
        if let Some(age) = self.options.max_age {
            let oldest = SystemTime::now() - age;
            backups.retain(|p| {
                let old = std::fs::metadata(p)
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t < oldest);
                if old {
                    let _ = std::fs::remove_file(p);
                }
                !old
            });
        }
        if self.options.max_backups > 0 && backups.len() > self.options.max_backups {
            let excess = backups.len() - self.options.max_backups;
            for p in &backups[..excess] {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

/// The file name's stem and extension (with its dot): `audit.log` is `audit` and `.log`.
fn name_parts(path: &Path) -> (String, String) {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (stem, ext)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_rotates_by_size_and_keeps_its_backups() {
        let dir = std::env::temp_dir().join(format!("audit-log-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let log = AuditLog::new(LogOptions {
            path: dir.join("audit.log"),
            max_size: 100,
            max_backups: 2,
            max_age: None,
        })
        .unwrap();
        let line = [b'x'; 39];
        for _ in 0..10 {
            log.write(&line);
            // Backups are ordered by modification time, which needs to differ.
            std::thread::sleep(Duration::from_millis(5));
        }
        // Two lines (80 bytes) fit under 100; ten lines make four rotations, two backups kept.
        let current = std::fs::read_to_string(dir.join("audit.log")).unwrap();
        assert_eq!(current.lines().count(), 2);
        let backups = log.backups();
        assert_eq!(backups.len(), 2, "{backups:?}");
        for b in &backups {
            let name = b.file_name().unwrap().to_string_lossy().into_owned();
            assert!(name.starts_with("audit-") && name.ends_with(".log"), "{name}");
            assert_eq!(std::fs::read_to_string(b).unwrap().lines().count(), 2);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
