//! Registers DejaVu Sans (embedded by the `dejavu` crate) with plotters'
//! `ab_glyph` text renderer, once per process, so charts never depend on the
//! fonts installed on the machine and render identically everywhere.

use std::sync::OnceLock;

use plotters::style::{register_font, FontStyle};

use crate::report::error::ReportError;

/// The family name charts ask for. Registering DejaVu under plotters' generic
/// `sans-serif` name also covers every default text style plotters uses.
pub(crate) const FAMILY: &str = "sans-serif";

/// Registers the font (first call only) and reports whether it worked.
/// `file` names the chart being drawn, for the error message.
pub(crate) fn ensure_registered(file: &'static str) -> Result<(), ReportError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        let regular = register_font(FAMILY, FontStyle::Normal, dejavu::sans::regular()).is_ok();
        let bold = register_font(FAMILY, FontStyle::Bold, dejavu::sans::bold()).is_ok();
        regular && bold
    });
    if ok {
        Ok(())
    } else {
        Err(ReportError::Font { file })
    }
}
