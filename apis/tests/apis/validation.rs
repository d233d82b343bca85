//! Kubernetes' hand-written validation of built-in kinds as `apis` carries it, on the pieces a
//! server test reaches only through whole objects: robfig/cron's schedule parsing (a CronJob's
//! `spec.schedule`) and IANA port names (a Service's target ports).

use apis::batch::v1::parse_standard_schedule as parse;
use apis::core::v1::port_name;

#[test]
fn schedules_parse_as_robfig_cron_parses_them() {
    for good in [
        "*/1 * * * *",
        "0 0 * * *",
        "15,45 9-17 * JAN-mar mon-FRI",
        "0 0 1 */2 ?",
        "5/15 * * * *",
        "@hourly",
        "@every 1h30m",
    ] {
        assert_eq!(parse(good), Ok(()), "{good}");
    }
    let cases = [
        ("", "empty spec string"),
        ("* * * *", "expected exactly 5 fields, found 4: [* * * *]"),
        ("60 * * * *", "end of range (60) above maximum (59): 60"),
        ("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
        ("5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"),
        ("1-2-3 * * * *", "too many hyphens: 1-2-3"),
        ("*/0 * * * *", "step of range should be a positive number: */0"),
        ("*/1/2 * * * *", "too many slashes: */1/2"),
        (
            "x * * * *",
            "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax",
        ),
        ("@often", "unrecognized descriptor: @often"),
    ];
    for (bad, why) in cases {
        assert_eq!(parse(bad), Err(why.to_string()), "{bad}");
    }
}

#[test]
fn port_names_are_iana_service_names() {
    assert!(port_name("http").is_empty());
    assert!(port_name("h2c-8080").is_empty());
    assert_eq!(port_name("8080"), ["must contain at least one letter (a-z)"]);
    assert_eq!(
        port_name("-Web--"),
        [
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
            "must not contain consecutive hyphens",
            "must not begin or end with a hyphen",
        ]
    );
    assert_eq!(
        port_name("a-very-long-port-name")[0],
        "must be no more than 15 characters"
    );
}
