//! Opening the files skirmish writes (journals, their locks and temporary
//! rewrites, staged report files, batch exports) without following
//! symbolic links.
//!
//! Every name skirmish writes sits in a folder someone else may also write
//! (a shared `reports/`, a cluster's scratch space). A symbolic link
//! planted under one of those names (`duel.journal.lock -> ~/.bashrc`)
//! would otherwise make a run create, truncate or append to a file outside
//! the folder. Opening with `O_NOFOLLOW` refuses a link in the last
//! component instead, and [`is_link`] tells that refusal apart so callers
//! can say what is wrong (exit 2) rather than report a machine failure.
//! Platforms without `O_NOFOLLOW` open as usual.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// Opens `path` with `options`, refusing a symbolic link as the file
/// itself (an [`is_link`] error).
pub fn open(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    options.open(path).map_err(|e| {
        // O_NOFOLLOW on a link fails with ELOOP; say it in words.
        if is_link(&e) || std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) {
            io::Error::new(io::ErrorKind::InvalidInput, LinkRefused)
        } else {
            e
        }
    })
}

/// Creates `path` (or truncates it) for writing, refusing a link.
pub fn create(path: &Path) -> io::Result<File> {
    open(
        path,
        OpenOptions::new().write(true).create(true).truncate(true),
    )
}

/// Opens an existing `path` for appending, refusing a link.
pub fn append(path: &Path) -> io::Result<File> {
    open(path, OpenOptions::new().append(true))
}

/// Writes `bytes` to `path` (created or truncated), refusing a link.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    create(path)?.write_all(bytes)
}

/// The error of opening a symbolic link for writing.
#[derive(Debug)]
struct LinkRefused;

impl std::fmt::Display for LinkRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "it is a symbolic link, and skirmish never writes through one (it could change \
             a file elsewhere): remove the link",
        )
    }
}

impl std::error::Error for LinkRefused {}

/// Whether `e` is [`open`]'s refusal of a symbolic link.
pub fn is_link(e: &io::Error) -> bool {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return true;
    }
    e.get_ref().is_some_and(|inner| inner.is::<LinkRefused>())
}

/// The first `limit` bytes of the regular file at `path` (fewer if it is
/// shorter); an error for a link or anything else that is not a regular
/// file, so that what skirmish inspects before deleting is never a device
/// or a link to one.
pub fn head(path: &Path, limit: usize) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let meta = std::fs::symlink_metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut bytes = Vec::with_capacity(limit.min(4096));
    File::open(path)?
        .take(limit as u64)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}
