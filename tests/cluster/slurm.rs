//! A throw-away single-node Slurm cluster for one test, started and stopped
//! by `tests/slurm/cluster.sh`, and what its jobs did.
//!
//! Slurm is a real dependency of the test suite, installed by
//! `.ci/install-slurm` (which `bash .ci/test` runs): a machine without it
//! fails the test with a message saying so, never skips it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// The programs the cluster and the test call.
const PROGRAMS: [&str; 8] = [
    "munged",
    "slurmctld",
    "slurmd",
    "sbatch",
    "squeue",
    "scontrol",
    "scancel",
    "sinfo",
];

/// Job states after which a job does nothing more (scontrol's words).
const FINAL_STATES: [&str; 9] = [
    "COMPLETED",
    "FAILED",
    "CANCELLED",
    "TIMEOUT",
    "NODE_FAIL",
    "PREEMPTED",
    "BOOT_FAIL",
    "DEADLINE",
    "OUT_OF_MEMORY",
];

/// Panics naming the first of Slurm's programs missing from `PATH`, and how
/// to install it.
pub fn require_installed() {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for program in PROGRAMS {
        let found = std::env::split_paths(&path).any(|dir| dir.join(program).is_file());
        assert!(
            found,
            "{program} is not installed: the Slurm test needs a real Slurm; \
             run `.ci/install-slurm` as root (`bash .ci/test` does)"
        );
    }
}

/// A running cluster; dropping it stops it (its jobs, then its daemons) and
/// removes its folder.
pub struct Cluster {
    dir: TempDir,
}

impl Cluster {
    /// Starts a cluster in a fresh folder and waits until its node is idle.
    pub fn start() -> Self {
        require_installed();
        // Under /tmp whatever TMPDIR says: munged's socket lives in the
        // folder, and a socket path may not exceed 107 bytes.
        let dir = tempfile::Builder::new()
            .prefix("skirmish-slurm-")
            .tempdir_in("/tmp")
            .expect("create the cluster's folder");
        // Shown if the test fails: where the logs are, and what to pass to
        // `tests/slurm/cluster.sh stop` should this process be killed.
        eprintln!("Slurm test cluster in {}", dir.path().display());
        let cluster = Cluster { dir };
        let out = cluster.script("start");
        assert!(
            out.status.success(),
            "tests/slurm/cluster.sh start failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        cluster
    }

    fn script(&self, action: &str) -> std::process::Output {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slurm/cluster.sh");
        Command::new("bash")
            .arg(script)
            .arg(action)
            .arg(self.dir.path())
            .output()
            .expect("run tests/slurm/cluster.sh")
    }

    /// The cluster's configuration file.
    pub fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    /// `program` set to talk to this cluster.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("SLURM_CONF", self.conf());
        cmd
    }

    /// What scontrol says of job `id`: one record per job, and per task of
    /// an array (tasks not yet started share one record).
    pub fn jobs(&self, id: u32) -> Vec<JobRecord> {
        let out = self
            .command("scontrol")
            .args(["--oneliner", "show", "job", &id.to_string()])
            .output()
            .expect("run scontrol");
        assert!(
            out.status.success(),
            "scontrol show job {id}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(JobRecord::parse)
            .collect()
    }

    /// Waits until every job of `ids` is in a final state, polling; `Err`
    /// with what is still going if that takes longer than `limit`.
    pub fn wait(&self, ids: &[u32], limit: Duration) -> Result<(), String> {
        let start = Instant::now();
        loop {
            let records: Vec<JobRecord> = ids.iter().flat_map(|&id| self.jobs(id)).collect();
            if records.iter().all(JobRecord::is_final) {
                return Ok(());
            }
            if start.elapsed() > limit {
                let going: Vec<String> = records
                    .iter()
                    .filter(|r| !r.is_final())
                    .map(JobRecord::describe)
                    .collect();
                return Err(format!("still going after {limit:?}: {going:?}"));
            }
            sleep(Duration::from_millis(200));
        }
    }

    /// What to read when a job did not do what it should: every job's
    /// record, every job output file in `work`, and the end of the
    /// controller's and node's logs.
    pub fn diagnostics(&self, ids: &[u32], work: &Path) -> String {
        let mut text = String::new();
        for &id in ids {
            for record in self.jobs(id) {
                text += &format!("job {}\n", record.describe());
            }
        }
        for name in crate::common::entries(work) {
            if name.starts_with("slurm-") && name.ends_with(".out") {
                let body = std::fs::read_to_string(work.join(&name)).unwrap_or_default();
                text += &format!("--- {name}\n{body}");
            }
        }
        for log in ["slurmctld.log", "slurmd.log"] {
            let body = std::fs::read_to_string(self.dir.path().join(log)).unwrap_or_default();
            let tail: Vec<&str> = body.lines().rev().take(15).collect();
            text += &format!("--- end of {log}\n");
            for line in tail.into_iter().rev() {
                text += line;
                text.push('\n');
            }
        }
        text
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let out = self.script("stop");
        if !out.status.success() {
            eprintln!(
                "tests/slurm/cluster.sh stop failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// One line of `scontrol --oneliner show job`: its `Key=value` fields.
pub struct JobRecord {
    fields: BTreeMap<String, String>,
}

impl JobRecord {
    fn parse(line: &str) -> Self {
        let fields = line
            .split_whitespace()
            .filter_map(|field| field.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        JobRecord { fields }
    }

    /// Field `key`, or `""` if the record has none.
    pub fn get(&self, key: &str) -> &str {
        self.fields.get(key).map_or("", String::as_str)
    }

    /// Whether the job has finished, one way or another.
    pub fn is_final(&self) -> bool {
        FINAL_STATES.contains(&self.get("JobState"))
    }

    /// Whether the job finished and its script exited 0.
    pub fn succeeded(&self) -> bool {
        self.get("JobState") == "COMPLETED" && self.get("ExitCode") == "0:0"
    }

    /// The record in a few words, for messages.
    pub fn describe(&self) -> String {
        format!(
            "{} (array task {}): {} exit {} {}",
            self.get("JobId"),
            self.get("ArrayTaskId"),
            self.get("JobState"),
            self.get("ExitCode"),
            self.get("Reason"),
        )
    }
}
