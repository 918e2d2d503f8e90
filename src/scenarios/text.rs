//! Parsing of one setting from text. The page's fields, the URL query and the
//! CLI's `--set key=value` all arrive as strings and go through these, so a
//! value is judged the same way wherever it comes from.

use super::error::ConfigError;

/// Largest length of a value we are willing to parse (hostile URLs).
const MAX_VALUE_LEN: usize = 2000;

fn trimmed<'a>(field: &str, value: &'a str) -> Result<&'a str, ConfigError> {
    if value.len() > MAX_VALUE_LEN {
        return Err(ConfigError::invalid(field, "value is too long"));
    }
    Ok(value.trim())
}

/// A finite real number ("1e-6", "2.5").
pub fn parse_f64(field: &str, value: &str) -> Result<f64, ConfigError> {
    let v = trimmed(field, value)?;
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(ConfigError::NotANumber {
            field: field.to_string(),
            value: shorten(v),
        }),
    }
}

/// A non-negative whole number ("20000", "2e4" is accepted when integral).
pub fn parse_usize(field: &str, value: &str) -> Result<usize, ConfigError> {
    let v = trimmed(field, value)?;
    if let Ok(x) = v.parse::<usize>() {
        return Ok(x);
    }
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x < 1e15 => Ok(x as usize),
        Ok(x) if x.is_finite() && x < 0.0 && x.fract() == 0.0 => Err(ConfigError::invalid(
            field,
            format!(
                "{field} must be a whole number, not negative (got {})",
                shorten(v)
            ),
        )),
        _ => Err(ConfigError::NotAnInteger {
            field: field.to_string(),
            value: shorten(v),
        }),
    }
}

/// A seed: any whole number in 0..2^64.
pub fn parse_u64(field: &str, value: &str) -> Result<u64, ConfigError> {
    let v = trimmed(field, value)?;
    v.parse::<u64>().map_err(|_| ConfigError::NotAnInteger {
        field: field.to_string(),
        value: shorten(v),
    })
}

/// A list of reals: "1,2,4,6,8" (commas or spaces), or a range "a:b:step"
/// ("1:8:1" gives 1,2,…,8).
pub fn parse_f64_list(field: &str, value: &str) -> Result<Vec<f64>, ConfigError> {
    let v = trimmed(field, value)?;
    if v.contains(':') {
        let parts: Vec<&str> = v.split(':').map(str::trim).collect();
        if parts.len() != 3 {
            return Err(ConfigError::invalid(
                field,
                "a range is written start:stop:step, e.g. 1:8:1",
            ));
        }
        let (a, b, s) = (
            parse_f64(field, parts[0])?,
            parse_f64(field, parts[1])?,
            parse_f64(field, parts[2])?,
        );
        if s <= 0.0 || b < a {
            return Err(ConfigError::invalid(
                field,
                "a range start:stop:step needs step > 0 and stop ≥ start",
            ));
        }
        let count = ((b - a) / s + 1e-9).floor() as usize + 1;
        if count > 64 {
            return Err(ConfigError::invalid(
                field,
                format!("at most 64 values (this range has {count})"),
            ));
        }
        return Ok((0..count).map(|i| a + i as f64 * s).collect());
    }
    let items: Vec<&str> = v
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    if items.is_empty() {
        return Err(ConfigError::invalid(
            field,
            "give at least one value, e.g. 1,2,4,6,8",
        ));
    }
    if items.len() > 64 {
        return Err(ConfigError::invalid(
            field,
            format!("at most 64 values (got {})", items.len()),
        ));
    }
    items.into_iter().map(|t| parse_f64(field, t)).collect()
}

/// A list of whole numbers: "100,1000,8000".
pub fn parse_usize_list(field: &str, value: &str) -> Result<Vec<usize>, ConfigError> {
    let v = trimmed(field, value)?;
    let items: Vec<&str> = v
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    if items.is_empty() {
        return Err(ConfigError::invalid(field, "give at least one value"));
    }
    if items.len() > 64 {
        return Err(ConfigError::invalid(
            field,
            format!("at most 64 values (got {})", items.len()),
        ));
    }
    items.into_iter().map(|t| parse_usize(field, t)).collect()
}

/// A boolean: true/false, 1/0, yes/no, on/off.
pub fn parse_bool(field: &str, value: &str) -> Result<bool, ConfigError> {
    match trimmed(field, value)?.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        other => Err(ConfigError::invalid(
            field,
            format!("must be on or off (got \"{}\")", shorten(other)),
        )),
    }
}

/// The error for a text that is none of the listed names.
pub fn not_one_of(field: &str, value: &str, choices: &[&str]) -> ConfigError {
    ConfigError::invalid(
        field,
        format!(
            "must be one of {} (got \"{}\")",
            choices.join(", "),
            shorten(value.trim())
        ),
    )
}

/// Keeps echoed user input short (and harmless) in messages.
fn shorten(v: &str) -> String {
    let s: String = v.chars().filter(|c| !c.is_control()).take(40).collect();
    if v.chars().count() > 40 {
        format!("{s}…")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_lists_and_ranges_parse() {
        assert_eq!(parse_f64("delta", "1e-6").unwrap(), 1e-6);
        assert_eq!(parse_usize("n", "2e4").unwrap(), 20000);
        assert_eq!(
            parse_f64_list("epsilons", "1, 2,4 6").unwrap(),
            vec![1.0, 2.0, 4.0, 6.0]
        );
        assert_eq!(
            parse_f64_list("epsilons", "1:3:0.5").unwrap(),
            vec![1.0, 1.5, 2.0, 2.5, 3.0]
        );
    }

    #[test]
    fn non_numbers_give_a_message_naming_the_field() {
        let e = parse_usize("n", "abc").unwrap_err();
        assert_eq!(e.field(), "n");
        assert_eq!(e.to_string(), "n must be a whole number (got \"abc\")");
        assert!(parse_f64("delta", "NaN").is_err());
        assert!(parse_f64("delta", "inf").is_err());
        assert!(parse_usize("n", "2.5").is_err());
        assert!(parse_f64_list("epsilons", "1,,x").is_err());
        assert!(parse_f64_list("epsilons", "").is_err());
    }

    #[test]
    fn hostile_values_are_refused_without_echoing_them_whole() {
        let long = "<script>".repeat(400);
        assert!(parse_f64("delta", &long).is_err());
        let e = parse_f64(
            "delta",
            "<img src=x onerror=alert(1)>aaaaaaaaaaaaaaaaaaaaaaaaaa",
        )
        .unwrap_err();
        assert!(e.to_string().len() < 120);
    }
}
