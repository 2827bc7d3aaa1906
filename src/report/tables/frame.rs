//! Tables as polars DataFrames, and their serialisation to CSV.
//!
//! The CSV writers describe their columns with a [`TableBuilder`] (integer,
//! text, or float with a fixed number of decimals); the result is a typed
//! polars [`DataFrame`] plus each float column's decimal places. polars'
//! `CsvWriter` has a single float precision for the whole file, so
//! [`Table::to_csv`] formats each float column to its own decimals (as a string
//! column) just before writing. Output is `\n`-terminated, with a header, and
//! depends only on the table's contents, so the same input gives the same
//! bytes.

use polars::prelude::{Column, CsvWriter, DataFrame, PolarsResult, SerWriter};

use crate::report::error::ReportError;
use crate::report::labels::fixed;

/// How a column is written to CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// Written as polars writes it (integers, strings).
    AsIs,
    /// A float column written with this many decimals.
    Decimals(usize),
}

/// Collects typed columns for one table.
pub(crate) struct TableBuilder {
    file: &'static str,
    columns: Vec<Column>,
    formats: Vec<Format>,
}

/// A typed DataFrame plus how to write each of its columns.
pub(crate) struct Table {
    file: &'static str,
    pub(crate) frame: DataFrame,
    formats: Vec<Format>,
}

impl TableBuilder {
    /// A builder for the table written to `file` (used in error messages).
    pub(crate) fn new(file: &'static str) -> Self {
        TableBuilder {
            file,
            columns: Vec::new(),
            formats: Vec::new(),
        }
    }

    /// An unsigned integer column.
    pub(crate) fn ints(&mut self, name: &str, values: Vec<u64>) -> &mut Self {
        self.push(Column::new(name.into(), values), Format::AsIs)
    }

    /// A text column.
    pub(crate) fn texts(&mut self, name: &str, values: Vec<String>) -> &mut Self {
        self.push(Column::new(name.into(), values), Format::AsIs)
    }

    /// A float column written with `decimals` decimal places.
    pub(crate) fn floats(&mut self, name: &str, values: Vec<f64>, decimals: usize) -> &mut Self {
        self.push(Column::new(name.into(), values), Format::Decimals(decimals))
    }

    /// A text column with missing values (written as empty fields).
    pub(crate) fn optional_texts(&mut self, name: &str, values: Vec<Option<String>>) -> &mut Self {
        self.push(Column::new(name.into(), values), Format::AsIs)
    }

    /// A float column with missing values (written as empty fields),
    /// `decimals` decimal places.
    pub(crate) fn optional_floats(
        &mut self,
        name: &str,
        values: Vec<Option<f64>>,
        decimals: usize,
    ) -> &mut Self {
        self.push(Column::new(name.into(), values), Format::Decimals(decimals))
    }

    fn push(&mut self, column: Column, format: Format) -> &mut Self {
        self.columns.push(column);
        self.formats.push(format);
        self
    }

    /// The DataFrame; fails on columns of unequal length or duplicate names
    /// (e.g. a counter named like a standard column).
    pub(crate) fn finish(self, height: usize) -> Result<Table, ReportError> {
        let file = self.file;
        let frame = DataFrame::new(height, self.columns)
            .map_err(|source| ReportError::Frame { file, source })?;
        Ok(Table {
            file,
            frame,
            formats: self.formats,
        })
    }
}

impl Table {
    /// The table as CSV bytes: header, one line per row, `\n` line endings.
    pub(crate) fn to_csv(&self) -> Result<Vec<u8>, ReportError> {
        let file = self.file;
        self.csv()
            .map_err(|source| ReportError::Frame { file, source })
    }

    fn csv(&self) -> PolarsResult<Vec<u8>> {
        let columns = self
            .frame
            .columns()
            .iter()
            .zip(&self.formats)
            .map(|(column, format)| match *format {
                Format::AsIs => Ok(column.clone()),
                Format::Decimals(decimals) => {
                    let text: Vec<Option<String>> = column
                        .f64()?
                        .iter()
                        .map(|v| v.map(|v| fixed(v, decimals)))
                        .collect();
                    Ok(Column::new(column.name().clone(), text))
                }
            })
            .collect::<PolarsResult<Vec<Column>>>()?;
        let mut text = DataFrame::new(self.frame.height(), columns)?;
        let mut bytes = Vec::new();
        CsvWriter::new(&mut bytes)
            .include_header(true)
            .with_line_terminator("\n".into())
            .finish(&mut text)?;
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_column_decimals() {
        let mut b = TableBuilder::new("test.csv");
        b.ints("n", vec![1, 20])
            .texts("name", vec!["a".into(), "b,c".into()])
            .floats("rate", vec![0.5, 1.0 / 3.0], 4)
            .floats("mean", vec![-0.0001, 2.0], 1)
            .optional_floats("maybe", vec![None, Some(0.25)], 2)
            .optional_texts("note", vec![Some("x".into()), None]);
        let csv = b.finish(2).and_then(|t| t.to_csv());
        let csv = csv.map(String::from_utf8);
        assert_eq!(
            csv.ok().and_then(Result::ok).as_deref(),
            Some("n,name,rate,mean,maybe,note\n1,a,0.5000,0.0,,x\n20,\"b,c\",0.3333,2.0,0.25,\n")
        );
    }

    #[test]
    fn duplicate_column_is_an_error() {
        let mut b = TableBuilder::new("test.csv");
        b.ints("x", vec![1]).ints("x", vec![2]);
        let err = b.finish(1).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("test.csv"), "{err}");
    }
}
