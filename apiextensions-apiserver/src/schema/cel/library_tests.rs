//! Kubernetes' CEL libraries as rules use them: each expression below must hold, and the
//! failing ones must fail with Kubernetes' message.

use serde_json::json;

use super::super::{Structural, validate};

/// The errors of `rule` on an object whose spec is `{}`.
fn run(rule: &str) -> Vec<String> {
    let v = json!({"type": "object", "properties": {"spec": {
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "x-kubernetes-validations": [{"rule": rule}]
    }}});
    let mut errors = Vec::new();
    let s = Structural::read(&v, "openAPIV3Schema", &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    validate(&s, &json!({"spec": {}}), None)
        .iter()
        .map(|e| e.to_string())
        .collect()
}

fn holds(rules: &[&str]) {
    for rule in rules {
        let found = run(rule);
        assert!(found.is_empty(), "{rule}: {found:?}");
    }
}

#[test]
fn regex_and_sets() {
    holds(&[
        "'abc 123'.find('[0-9]+') == '123'",
        "'abc'.find('[0-9]+') == ''",
        "'a1b22c333'.findAll('[0-9]+') == ['1', '22', '333']",
        "'a1b22c333'.findAll('[0-9]+', 2) == ['1', '22']",
        "sets.contains([1, 2, 3], [3, 1])",
        "!sets.contains([1, 2], [4])",
        "sets.equivalent([1, 2, 2], [2, 1])",
        "sets.intersects([1, 2], [2, 5])",
        "!sets.intersects([1], [])",
    ]);
}

#[test]
fn quantities() {
    holds(&[
        "quantity('1Gi').isGreaterThan(quantity('500Mi'))",
        "quantity('500m').isLessThan(quantity('1'))",
        "quantity('1000m') == quantity('1')",
        "quantity('1.5k').compareTo(quantity('1500')) == 0",
        "quantity('2k').asInteger() == 2000",
        "quantity('1Ki').add(quantity('1Ki')) == quantity('2Ki')",
        "quantity('1').add(2) == quantity('3')",
        "quantity('1').sub(quantity('1500m')).sign() == -1",
        "!quantity('1.5').isInteger()",
        "quantity('250m').asApproximateFloat() == 0.25",
        "isQuantity('1e3') && !isQuantity('lots')",
    ]);
    assert_eq!(
        run("quantity('lots').sign() == 1"),
        [
            "spec: Invalid value: \"object\": quantities must match the regular expression \
          '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' evaluating rule: quantity('lots').sign() == 1"
        ]
    );
    assert_eq!(
        run("quantity('1.5').asInteger() == 1"),
        [
            "spec: Invalid value: \"object\": cannot convert value to integer evaluating rule: quantity('1.5').asInteger() == 1"
        ]
    );
}

#[test]
fn ips_and_cidrs() {
    holds(&[
        "isIP('10.0.0.1') && isIP('::1') && !isIP('10.0.0.300')",
        "ip('10.0.0.1').family() == 4 && ip('fd00::1').family() == 6",
        "ip('127.0.0.1').isLoopback() && ip('0.0.0.0').isUnspecified()",
        "ip('169.254.1.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()",
        "ip('224.0.0.5').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast()",
        "ip('10.1.2.3').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast()",
        "ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')",
        "ip('10.0.0.1') == ip('10.0.0.1')",
        "!isIP('::ffff:1.2.3.4') && !isIP('fe80::1%eth0')",
        "cidr('10.0.0.0/8').containsIP('10.1.2.3') && !cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))",
        "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.0.0.0/16').containsCIDR(cidr('10.0.0.0/8'))",
        "cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8')",
        "cidr('10.1.2.3/8').ip() == ip('10.1.2.3') && cidr('fd00::/64').prefixLength() == 64",
        "isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0/33') && !isCIDR('10.0.0.0')",
    ]);
    assert_eq!(
        run("ip('::ffff:1.2.3.4').family() == 4"),
        [
            "spec: Invalid value: \"object\": IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed evaluating rule: ip('::ffff:1.2.3.4').family() == 4"
        ]
    );
}

#[test]
fn urls() {
    holds(&[
        "url('https://user@example.com:8443/a/b?x=1&x=2&y=%20').getScheme() == 'https'",
        "url('https://example.com:8443/a').getHost() == 'example.com:8443'",
        "url('https://example.com:8443/a').getHostname() == 'example.com'",
        "url('https://[::1]:80/').getHostname() == '::1' && url('https://[::1]:80/').getPort() == '80'",
        "url('https://example.com/a/b').getEscapedPath() == '/a/b'",
        "url('https://example.com/?x=1&x=2&y=%20').getQuery() == {'x': ['1', '2'], 'y': [' ']}",
        "url('/just/a/path').getHost() == ''",
        "isURL('https://example.com') && isURL('/p') && !isURL('example.com') && !isURL('')",
    ]);
    assert_eq!(
        run("url('nope').getScheme() == ''"),
        [
            "spec: Invalid value: \"object\": URL parse error during conversion from string: parse \"nope\": invalid URI for request evaluating rule: url('nope').getScheme() == ''"
        ]
    );
}

#[test]
fn formats() {
    holds(&[
        "!format.dns1123Label().validate('my-name').hasValue()",
        "format.dns1123Label().validate('My_Name').hasValue()",
        "format.dns1123Label().validate('a_b').value()[0].startsWith('a lowercase RFC 1123 label')",
        "!format.dns1123LabelPrefix().validate('my-prefix-').hasValue()",
        "format.named('uuid').hasValue() && !format.named('nothing').hasValue()",
        "!format.named('uuid').value().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()",
        "format.uri().validate('not a uri').hasValue() && !format.uri().validate('https://x.io/').hasValue()",
        "!format.date().validate('2026-12-04').hasValue() && format.date().validate('04.12.2026').hasValue()",
        "format.byte().validate('!!').hasValue() && !format.labelValue().validate('v1.2').hasValue()",
    ]);
}
