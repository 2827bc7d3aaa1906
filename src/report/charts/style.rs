//! The look shared by both charts: colours, text styles and the canvas that
//! turns a drawing into deterministic PNG bytes.
//!
//! Charts are drawn by plotters' bitmap backend into an RGB buffer in memory
//! and encoded here with the `png` crate: no files, no system fonts, no
//! timestamps, so the same input always gives the same bytes.

use plotters::backend::{BitMapBackend, DrawingBackend, RGBPixel};
use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind, IntoDrawingArea};
use plotters::element::{ErrorBar, Polygon};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontStyle, IntoFont, RGBColor, TextStyle, BLACK, WHITE};

use super::fonts;
use crate::report::error::ReportError;

/// The error type of every plotters call on our canvas.
pub(crate) type DrawError =
    DrawingAreaErrorKind<<BitMapBackend<'static> as DrawingBackend>::ErrorType>;

/// The whole canvas a chart draws on.
pub(crate) type Canvas<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// Tableau 10: distinct, colour-blind-friendlier than plotters' primaries.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Colour of series `i` (sides, or cells in an overlay), cycling the palette.
pub(crate) fn series_colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Grid lines, separators and other furniture.
pub(crate) const LIGHT_GREY: RGBColor = RGBColor(210, 210, 210);
/// Secondary text (axis titles, notes).
pub(crate) const DARK_GREY: RGBColor = RGBColor(80, 80, 80);

/// Longest side of any chart, in pixels: charts shrink their parts, or show
/// less (and say so), to stay within it, so the pixel buffer (3 bytes a
/// pixel) never grows with the number of cells.
pub(crate) const MAX_SIDE: u32 = 4000;

/// Chart title size in pixels.
pub(crate) const TITLE_SIZE: u32 = 24;
/// Axis titles, legends.
pub(crate) const LABEL_SIZE: u32 = 16;
/// Tick labels and small annotations.
pub(crate) const TICK_SIZE: u32 = 14;

/// Regular DejaVu Sans at `size` pixels.
pub(crate) fn text(size: u32) -> TextStyle<'static> {
    (fonts::FAMILY, size).into_font().into()
}

/// Bold DejaVu Sans at `size` pixels. (Built with the style up front:
/// plotters' `FontDesc::style` keeps the regular glyphs.)
pub(crate) fn bold(size: u32) -> TextStyle<'static> {
    (fonts::FAMILY, size, FontStyle::Bold).into_font().into()
}

/// Width in pixels `label` takes in `style`, from the font's advances (call
/// [`fonts::ensure_registered`] first; 0 if the font is unavailable).
pub(crate) fn text_width(label: &str, style: &TextStyle) -> u32 {
    style.font.box_size(label).map_or(0, |(w, _)| w)
}

/// The first of `candidates` (longest and clearest first) that fits in
/// `max_width` pixels in `style`; failing all, the last one cut to fit with
/// an ellipsis. Labels shorten by dropping words a reader can find
/// elsewhere (an axis name the subtitle gives) before they lose the part
/// that tells two panels apart.
pub(crate) fn fit(candidates: &[String], style: &TextStyle, max_width: u32) -> String {
    if let Some(c) = candidates
        .iter()
        .find(|c| text_width(c, style) <= max_width)
    {
        return c.clone();
    }
    let last = candidates.last().map_or("", String::as_str);
    let mut n = last.chars().count();
    while n > 1 {
        n -= 1;
        let cut = crate::report::labels::truncate(last, n);
        if text_width(&cut, style) <= max_width {
            return cut;
        }
    }
    String::new()
}

/// The house look of a chart's mesh: tick labels and axis titles in the
/// house fonts, light grey major lines, no minor lines.
pub(crate) fn house_mesh<'m, 'a, 'b, X, Y, DB>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB>
where
    X: Ranged + ValueFormatter<X::ValueType>,
    Y: Ranged + ValueFormatter<Y::ValueType>,
    DB: DrawingBackend,
{
    mesh.label_style(text(TICK_SIZE))
        .axis_desc_style(text(LABEL_SIZE))
        .bold_line_style(LIGHT_GREY)
        .light_line_style(WHITE)
}

/// The chart title, bold and centred at the top of a `width`-wide canvas.
pub(crate) fn draw_title(canvas: &Canvas, title: &str, width: u32) -> Result<(), DrawError> {
    let style = bold(TITLE_SIZE).pos(Pos::new(HPos::Center, VPos::Top));
    canvas.draw_text(title, &style, (width as i32 / 2, 12))
}

/// Draws a `width × height` chart with `draw` on a white canvas and returns it
/// as PNG bytes. `file` names the chart in errors.
pub(crate) fn render_png(
    file: &'static str,
    (width, height): (u32, u32),
    draw: impl FnOnce(&Canvas) -> Result<(), DrawError>,
) -> Result<Vec<u8>, ReportError> {
    fonts::ensure_registered(file)?;
    let chart_error = |e: &dyn std::fmt::Display| ReportError::Chart {
        file,
        message: e.to_string(),
    };
    let mut pixels = vec![255u8; width as usize * height as usize * 3];
    {
        let backend =
            BitMapBackend::<RGBPixel>::with_buffer_and_format(&mut pixels, (width, height))
                .map_err(|e| chart_error(&e))?;
        let canvas = backend.into_drawing_area();
        canvas.fill(&WHITE).map_err(|e| chart_error(&e))?;
        draw(&canvas).map_err(|e| chart_error(&e))?;
        canvas.present().map_err(|e| chart_error(&e))?;
    }
    encode_png(file, &pixels, width, height)
}

/// Encodes 8-bit RGB pixels as PNG. Best compression: reports are checked in,
/// and the encoder is deterministic at every level.
fn encode_png(
    file: &'static str,
    pixels: &[u8],
    width: u32,
    height: u32,
) -> Result<Vec<u8>, ReportError> {
    let png_error = |source| ReportError::Png { file, source };
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Best);
    let mut writer = encoder.write_header().map_err(png_error)?;
    writer.write_image_data(pixels).map_err(png_error)?;
    writer.finish().map_err(png_error)?;
    Ok(bytes)
}

/// A one-line legend of `names` (a whisker mark in [`series_colour`] `k`
/// each), centred at height `y` of a `width`-wide canvas: drawn outside the
/// plot so it never covers a point.
pub(crate) fn draw_legend(
    canvas: &Canvas,
    names: &[&str],
    width: u32,
    y: i32,
) -> Result<(), DrawError> {
    draw_legend_with(canvas, names, None, width, y)
}

/// [`draw_legend`], followed by `diamond`, when given, after an exact
/// value's mark ([`draw_diamond`]).
pub(crate) fn draw_legend_with(
    canvas: &Canvas,
    names: &[&str],
    diamond: Option<&str>,
    width: u32,
    y: i32,
) -> Result<(), DrawError> {
    let style = text(LABEL_SIZE);
    const MARK: i32 = 22;
    const GAP: i32 = 26;
    let total: i32 = names
        .iter()
        .chain(&diamond)
        .map(|s| MARK + text_width(s, &style) as i32 + GAP)
        .sum::<i32>()
        - GAP;
    let mut x = (width as i32 - total) / 2;
    for (k, name) in names.iter().enumerate() {
        let colour = series_colour(k);
        canvas.draw(&ErrorBar::new_vertical(
            x + 6,
            y - 7,
            y,
            y + 7,
            colour.filled().stroke_width(2),
            10,
        ))?;
        canvas.draw_text(
            name,
            &style.pos(Pos::new(HPos::Left, VPos::Center)),
            (x + MARK - 4, y),
        )?;
        x += MARK + text_width(name, &style) as i32 + GAP;
    }
    if let Some(name) = diamond {
        draw_diamond(canvas, (x + 6, y), DIAMOND)?;
        canvas.draw_text(
            name,
            &style.pos(Pos::new(HPos::Left, VPos::Center)),
            (x + MARK - 4, y),
        )?;
    }
    Ok(())
}

/// Half the height of the diamond marking an exact value, in pixels.
pub(crate) const DIAMOND: i32 = 6;

/// The mark of an exact value (`run --exact`): a black diamond reaching `r`
/// pixels from pixel `(x, y)` of the canvas, with a thin white rim so it
/// stands out on a whisker or a coloured square.
pub(crate) fn draw_diamond(canvas: &Canvas, (x, y): (i32, i32), r: i32) -> Result<(), DrawError> {
    let corners = |r: i32| vec![(x, y - r), (x + r, y), (x, y + r), (x - r, y)];
    canvas.draw(&Polygon::new(corners(r + 1), WHITE.filled()))?;
    canvas.draw(&Polygon::new(corners(r), BLACK.filled()))
}

/// Decimal places that print every tick of evenly spaced `ticks` exactly
/// and distinctly: those of the step (a step of 0.005 needs 3, not 2).
pub(crate) fn tick_decimals(ticks: &[f64]) -> usize {
    let step = ticks
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .filter(|s| *s > 0.0)
        .fold(f64::INFINITY, f64::min);
    if !step.is_finite() {
        return 2;
    }
    (0..=9)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6 * scaled.max(1.0)
        })
        .unwrap_or(9)
}

/// Black or white, whichever reads better on `background`.
pub(crate) fn ink_on(background: RGBColor) -> RGBColor {
    let RGBColor(r, g, b) = background;
    let luma = 0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b);
    if luma < 140.0 {
        WHITE
    } else {
        BLACK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_decimals_follow_the_step() {
        assert_eq!(tick_decimals(&[-0.01, -0.005, 0.0, 0.005, 0.01]), 3);
        assert_eq!(tick_decimals(&[-0.02, 0.0, 0.02]), 2);
        assert_eq!(tick_decimals(&[0.0, 0.25, 0.5]), 2);
        assert_eq!(tick_decimals(&[0.0, 1.0, 2.0]), 0);
        assert_eq!(tick_decimals(&[0.5]), 2);
    }
}
