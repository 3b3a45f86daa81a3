//! The text of an explained evaluation term (`eval`'s `name value` lines).

use plyd_api::sdk::term_text;

#[test]
fn a_term_reads_without_float_noise_or_negative_zero() {
    for (value, text) in [
        (143.60000000000005, "143.6"),
        (-0.0, "0"),
        (0.0, "0"),
        (2.0, "2"),
        (100.0, "100"),
        (-3.25, "-3.25"),
        (0.5, "0.5"),
        (1e-10, "0"),
        (-1e-10, "0"),
        (123456789.0, "123456789"),
        (f64::INFINITY, "inf"),
    ] {
        assert_eq!(term_text(value), text, "{value}");
    }
}
