//! Hand-written validation of batch/v1, as Kubernetes' pkg/apis/batch/validation checks a
//! CronJob: its schedule parsed as the cron library Kubernetes uses parses a standard schedule
//! (five fields or a descriptor, robfig/cron's words in the errors), no time zone inside the
//! schedule, and its `timeZone` a known IANA zone.

use kube_apimachinery::validation::{ErrorList, FieldError, Operation, Path};

use super::CronJob;

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/// Each schedule field's least and greatest value and its names: minute, hour, day of month,
/// month (named from 1), day of week (named from 0). A tuple, not a struct: every struct of an
/// API package is an API type to the generators.
const FIELDS: [(u32, u32, &[&str]); 5] = [
    (0, 59, &[]),
    (0, 23, &[]),
    (1, 31, &[]),
    (1, 12, &MONTHS),
    (0, 6, &DAYS),
];

/// Go's `strconv.Atoi` of a field, as robfig/cron words its failure.
fn number(expr: &str) -> Result<u32, String> {
    let syntax = || format!("failed to parse int from {expr}: strconv.Atoi: parsing {expr:?}: invalid syntax");
    let digits = expr.strip_prefix(['+', '-']).unwrap_or(expr);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax());
    }
    let value: i64 = expr
        .parse()
        .map_err(|_| format!("failed to parse int from {expr}: strconv.Atoi: parsing {expr:?}: value out of range"))?;
    if value < 0 {
        return Err(format!("negative number ({value}) not allowed: {expr}"));
    }
    u32::try_from(value).map_err(|_| syntax())
}

fn number_or_name(expr: &str, (min, _, names): (u32, u32, &[&str])) -> Result<u32, String> {
    let lower = expr.to_ascii_lowercase();
    match names.iter().position(|n| *n == lower) {
        // Months count from 1, days of the week from 0.
        Some(i) => Ok(i as u32 + min),
        None => number(expr),
    }
}

/// robfig/cron's `getRange`: `*`, `?`, `N`, `N-M`, each with an optional `/step`.
fn range(expr: &str, bounds: (u32, u32, &[&str])) -> Result<(), String> {
    let (min, max, _) = bounds;
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let (start, mut end) = if low_and_high[0] == "*" || low_and_high[0] == "?" {
        (min, max)
    } else {
        let start = number_or_name(low_and_high[0], bounds)?;
        match low_and_high.len() {
            1 => (start, start),
            2 => (start, number_or_name(low_and_high[1], bounds)?),
            _ => return Err(format!("too many hyphens: {expr}")),
        }
    };
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = number(range_and_step[1])?;
            // `N/step` means from N to the maximum.
            if low_and_high.len() == 1 {
                end = max;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < min {
        return Err(format!("beginning of range ({start}) below minimum ({min}): {expr}"));
    }
    if end > max {
        return Err(format!("end of range ({end}) above maximum ({max}): {expr}"));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(())
}

/// Go's `time.ParseDuration`, as far as telling a duration from anything else.
fn is_go_duration(text: &str) -> bool {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    if body == "0" {
        return true;
    }
    let mut rest = body;
    let mut parts = 0;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if digits == 0 || rest[..digits].chars().filter(|c| *c == '.').count() > 1 {
            return false;
        }
        rest = &rest[digits..];
        let unit = ["ns", "us", "µs", "μs", "ms", "s", "m", "h"]
            .iter()
            .find(|u| rest.starts_with(**u) && !(**u == "m" && rest.starts_with("ms")));
        let Some(unit) = unit else { return false };
        rest = &rest[unit.len()..];
        parts += 1;
    }
    parts > 0
}

/// robfig/cron's `ParseStandard`: why `schedule` is not a schedule, if it is not one.
pub fn parse_standard_schedule(schedule: &str) -> Result<(), String> {
    if schedule.is_empty() {
        return Err("empty spec string".into());
    }
    let mut spec = schedule;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        let (zone, rest) = spec.split_once(' ').unwrap_or((spec, ""));
        let zone = zone.split_once('=').map_or("", |(_, z)| z);
        if let Err(e) = load_location(zone) {
            return Err(format!("provided bad location {zone}: {e}"));
        }
        spec = rest.trim();
    }
    if let Some(descriptor) = spec.strip_prefix('@') {
        return match descriptor {
            "yearly" | "annually" | "monthly" | "weekly" | "daily" | "midnight" | "hourly" => Ok(()),
            _ => match spec.strip_prefix("@every ") {
                Some(d) if is_go_duration(d) => Ok(()),
                Some(d) => Err(format!("failed to parse duration {spec}: time: invalid duration {d:?}")),
                None => Err(format!("unrecognized descriptor: {spec}")),
            },
        };
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    for (field, bounds) in fields.iter().zip(FIELDS) {
        for expr in field.split(',') {
            range(expr, bounds)?;
        }
    }
    Ok(())
}

/// Go's `time.LoadLocation` over the system's zone database (kube-apiserver embeds its own).
fn load_location(zone: &str) -> Result<(), String> {
    let unknown = || format!("unknown time zone {zone}");
    if zone.is_empty() || zone == "UTC" || zone == "Local" {
        return Ok(());
    }
    if zone.starts_with('/') || zone.split('/').any(|p| p.is_empty() || p == "..") {
        return Err(unknown());
    }
    let database = std::path::Path::new("/usr/share/zoneinfo");
    // Without a database no zone can be told from a typo: accepted, as a server without one
    // cannot check.
    if !database.is_dir() || database.join(zone).is_file() {
        Ok(())
    } else {
        Err(unknown())
    }
}

/// `ValidateCronJobCreate` and `ValidateCronJobUpdate`'s schedule and time zone checks.
pub fn validate_custom_cron_job(op: &Operation, path: &Path<'_>, obj: &CronJob, old: Option<&CronJob>) -> ErrorList {
    let mut errs = ErrorList::new();
    let Some(spec) = obj.spec.as_ref() else { return errs };
    let spec_path = path.child("spec");
    let schedule_path = spec_path.child("schedule");
    let schedule = spec.schedule.as_str();
    if let Err(e) = parse_standard_schedule(schedule) {
        errs.push(FieldError::invalid(&schedule_path, schedule, e));
    }
    // A CronJob stored with a zone in its schedule (before Kubernetes forbade it) keeps it.
    let had_zone = op.is_update()
        && old
            .and_then(|o| o.spec.as_ref())
            .is_some_and(|s| s.schedule.contains("TZ"));
    if schedule.contains("TZ") {
        if !had_zone {
            errs.push(FieldError::invalid(
                &schedule_path,
                schedule,
                "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
            ));
        } else if spec.time_zone.is_some() {
            errs.push(FieldError::invalid(
                &schedule_path,
                schedule,
                "cannot use both timeZone field and TZ or CRON_TZ in schedule",
            ));
        }
    }
    if let Some(zone) = spec.time_zone.as_deref() {
        let zone_path = spec_path.child("timeZone");
        if zone.is_empty() {
            errs.push(FieldError::invalid(
                &zone_path,
                zone,
                "timeZone must be nil or non-empty string",
            ));
        } else if zone.eq_ignore_ascii_case("local") {
            errs.push(FieldError::invalid(
                &zone_path,
                zone,
                "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
            ));
        } else if let Err(e) = load_location(zone) {
            errs.push(FieldError::invalid(&zone_path, zone, e));
        }
    }
    errs
}
