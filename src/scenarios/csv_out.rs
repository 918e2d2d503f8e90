//! Every CSV file the project writes goes through this one writer: the `csv`
//! crate's, which quotes a field only when it holds a comma, a double quote or
//! a line break (doubling any quote inside), so a reader always finds the
//! header's number of fields in every record, whatever text a method's or a
//! variant's name carries. Rows end in `\n`.
//!
//! [`records`] reads such a text back (the claims read `results.csv`).
//! The numbers' text is here too: [`number`] (empty when not applicable,
//! `inf` for ∞, otherwise Rust's shortest round-trip form, every digit), the
//! text every stored output was written with.

/// A CSV file being written: its header, then rows of the header's width.
pub struct CsvFile {
    out: csv::Writer<Vec<u8>>,
    columns: usize,
}

impl CsvFile {
    /// A file whose header names these columns.
    pub fn new<'a>(columns: impl IntoIterator<Item = &'a str>) -> Self {
        let columns: Vec<&str> = columns.into_iter().collect();
        let mut file = CsvFile {
            out: csv::WriterBuilder::new()
                .terminator(csv::Terminator::Any(b'\n'))
                .from_writer(Vec::new()),
            columns: columns.len(),
        };
        file.row(columns);
        file
    }

    /// A file whose header is `header`: column names separated by commas (no
    /// column name holds a comma).
    pub fn with_header(header: &str) -> Self {
        CsvFile::new(header.split(','))
    }

    /// One record, quoted where a field needs it.
    ///
    /// # Panics
    /// When the row's width is not the header's: a bug of the caller, which
    /// would otherwise write a file no reader can align.
    pub fn row<S: AsRef<str>>(&mut self, fields: impl IntoIterator<Item = S>) {
        let fields: Vec<S> = fields.into_iter().collect();
        assert_eq!(
            fields.len(),
            self.columns,
            "a CSV row of {} fields under a header of {}",
            fields.len(),
            self.columns
        );
        // Writing to memory a record of the header's width cannot fail (no
        // `expect`: it would bring the formatting of the writer's errors into
        // the wasm module for a message never shown).
        let bytes = fields.iter().map(|f| f.as_ref().as_bytes());
        if self.out.write_record(bytes).is_err() {
            unreachable!("a CSV record written to memory");
        }
    }

    /// The file's text.
    pub fn finish(self) -> String {
        let Ok(bytes) = self.out.into_inner() else {
            unreachable!("flushing to memory cannot fail");
        };
        // Every field came in as UTF-8 text (a `str`).
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// The records of a CSV text (the header first), read by the `csv` crate's
/// reader: quoted fields (commas, doubled quotes, line breaks) come back
/// whole. A record that cannot be read ends the list.
pub fn records(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .into_records()
        .map_while(Result::ok)
        .map(|r| r.iter().map(String::from).collect())
        .collect()
}

/// A number in a CSV file: empty when not applicable (NaN), `inf` for +∞
/// (`-inf` for −∞), otherwise every digit (Rust's shortest round-trip form).
pub fn number(x: f64) -> String {
    number_or(x, "")
}

/// [`number`], with NaN written as `nan_text` (Private FedRep's `results.csv`
/// writes `nan`, as its stored outputs always have).
pub fn number_or(x: f64, nan_text: &str) -> String {
    if x.is_nan() {
        nan_text.to_string()
    } else {
        format!("{x}")
    }
}

/// A row struct written one CSV record per value: its header's column names
/// and a record's fields, in the same order. [`csv_record!`] writes both from
/// one list of the struct's fields, so that a header and its cells cannot
/// drift apart (a reordered column would otherwise still have the header's
/// width, and [`CsvFile::row`] would not notice).
pub trait CsvRecord {
    /// The header's column names.
    const COLUMNS: &'static [&'static str];
    /// The record's fields, unquoted (the writer quotes what needs it).
    fn fields(&self) -> Vec<String>;
}

/// The text of a CSV file of `rows`: the header, then one record per row.
pub fn file_of<R: CsvRecord>(rows: &[R]) -> String {
    let mut out = CsvFile::new(R::COLUMNS.iter().copied());
    for r in rows {
        out.row(r.fields());
    }
    out.finish()
}

/// How [`csv_record!`] writes a cell, by the name its list gives.
pub mod cell {
    use std::fmt::Display;

    /// A name, a count or a seed: its `Display` text.
    pub fn text(x: &impl Display) -> String {
        x.to_string()
    }

    /// A number: [`super::number`] (empty when not applicable).
    pub fn num(x: &f64) -> String {
        super::number(*x)
    }

    /// A target ε whose NaN (a run that is not private) is written `inf`.
    pub fn inf(x: &f64) -> String {
        super::number_or(*x, "inf")
    }
}

/// Implements [`CsvRecord`] for a row struct from one list of its fields, in
/// the file's column order, each column named after its field and grouped by
/// how it is written (a function of [`cell`]):
///
/// ```ignore
/// csv_record! { Row { text: method seed; num: loss; inf: epsilon } }
/// ```
/// writes the header `method,seed,loss,epsilon`.
macro_rules! csv_record {
    ($row:ty { $($how:ident: $($field:ident)+);+ $(;)? }) => {
        impl $crate::scenarios::csv_out::CsvRecord for $row {
            const COLUMNS: &'static [&'static str] = &[$($(stringify!($field)),+),+];

            fn fields(&self) -> Vec<String> {
                vec![$($($crate::scenarios::csv_out::cell::$how(&self.$field)),+),+]
            }
        }
    };
}
pub(crate) use csv_record;

#[cfg(test)]
mod tests {
    use super::*;

    struct Row {
        method: String,
        seed: u64,
        loss: f64,
        epsilon: f64,
    }

    csv_record! { Row { text: method seed; num: loss; inf: epsilon } }

    #[test]
    fn a_record_lists_its_fields_in_the_header_s_order() {
        let rows = [
            Row {
                method: "a, b".into(),
                seed: 7,
                loss: 0.25,
                epsilon: f64::NAN,
            },
            Row {
                method: "c".into(),
                seed: 8,
                loss: f64::NAN,
                epsilon: 2.0,
            },
        ];
        assert_eq!(
            file_of(&rows),
            "method,seed,loss,epsilon\n\"a, b\",7,0.25,inf\nc,8,,2\n"
        );
    }

    #[test]
    fn only_a_field_with_a_comma_quote_or_line_break_is_quoted() {
        let mut f = CsvFile::with_header("method,epsilon,note");
        f.row(["dp-rgrad, paper's sensitivities", "1", "plain"]);
        f.row(["say \"hi\"", "inf", "two\nlines"]);
        f.row(["a;b (c) d", "", "x"]);
        assert_eq!(
            f.finish(),
            "method,epsilon,note\n\
             \"dp-rgrad, paper's sensitivities\",1,plain\n\
             \"say \"\"hi\"\"\",inf,\"two\nlines\"\n\
             a;b (c) d,,x\n"
        );
    }

    #[test]
    fn a_reader_gets_the_fields_back() {
        let fields = ["a,b", "\"q\"", "l1\nl2\r\n", " lead", "", "#x"];
        let mut f = CsvFile::new(["1", "2", "3", "4", "5", "6"]);
        f.row(fields);
        let text = f.finish();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let got: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].iter().collect::<Vec<_>>(), fields);
    }

    #[test]
    fn records_reads_back_what_the_writer_wrote() {
        let mut f = CsvFile::with_header("method,note");
        f.row(["dp-rgrad, clipped", "say \"x\"\non two lines"]);
        f.row(["plain", ""]);
        assert_eq!(
            records(&f.finish()),
            [
                vec!["method", "note"],
                vec!["dp-rgrad, clipped", "say \"x\"\non two lines"],
                vec!["plain", ""],
            ]
        );
        assert!(records("").is_empty());
    }

    #[test]
    #[should_panic(expected = "a CSV row of 2 fields under a header of 3")]
    fn a_row_of_another_width_is_refused() {
        let mut f = CsvFile::with_header("a,b,c");
        f.row(["1", "2"]);
    }

    #[test]
    fn numbers_keep_every_digit_and_mark_what_does_not_apply() {
        assert_eq!(number(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(number(1e-5), "0.00001");
        assert_eq!(number(1e300), format!("1{}", "0".repeat(300)));
        assert_eq!(number(f64::INFINITY), "inf");
        assert_eq!(number(f64::NEG_INFINITY), "-inf");
        assert_eq!(number(f64::NAN), "");
        assert_eq!(number_or(f64::NAN, "nan"), "nan");
        assert_eq!(number(3.0), "3");
        for x in [0.1, 1.0 / 3.0, 2.0f64.sqrt(), 5e-324, f64::MAX] {
            assert_eq!(number(x).parse::<f64>().unwrap().to_bits(), x.to_bits());
        }
    }
}
