//! The batch-system examples of `scenarios/cluster/`, run for real where this
//! machine can: a Slurm array of shards and its merge job on a throw-away
//! single-node Slurm cluster, and the Kubernetes Indexed Job checked against
//! the Kubernetes API's types and run as local processes with each pod's
//! environment. Each merged report must be byte for byte the report of one
//! `skirmish run` of the same scenario.
//!
//! Slurm comes from `.ci/install-slurm` (`bash .ci/test` runs it); without
//! it the Slurm test fails, saying so.

mod common;
#[path = "cluster/manifest.rs"]
mod manifest;
#[path = "cluster/slurm.rs"]
mod slurm;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

use common::Sandbox;
use k8s_openapi::api::core::v1::Volume;
use manifest::{name, pod_spec, spec, Manifest, Pod};

/// The built binary.
const SKIRMISH: &str = env!("CARGO_BIN_EXE_skirmish");

/// The fixture every test here runs: 4 cells of 16 batches (2000 fights
/// each, 128 to a batch), so 8 shards get 8 batches each, and the last
/// batch of each cell is a short one.
const SCENARIO_NAME: &str = "small";

/// `rel` in the repository.
fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Runs `scenario` once with `skirmish run` into `out` (in `sb`) and returns
/// the report folder.
fn single_run(sb: &Sandbox, scenario: &str, out: &str) -> PathBuf {
    let o = sb.run(&["run", scenario, "--out", out, "--quiet"]);
    assert_eq!(o.code, 0, "single run failed: {o:#?}");
    sb.join(out).join(SCENARIO_NAME)
}

/// Asserts that the report folders `merged` and `single` hold the same
/// files with the same bytes, naming the files that differ.
fn assert_same_report(merged: &Path, single: &Path) {
    let merged_files = common::read_report(merged);
    let single_files = common::read_report(single);
    assert_eq!(
        single_files.keys().collect::<Vec<_>>(),
        common::REPORT_FILES.iter().collect::<Vec<_>>(),
        "the single run wrote a whole report"
    );
    assert_eq!(
        merged_files.keys().collect::<Vec<_>>(),
        single_files.keys().collect::<Vec<_>>(),
        "{} holds the files of {}",
        merged.display(),
        single.display()
    );
    let differ: Vec<&String> = single_files
        .iter()
        .filter(|(file, bytes)| merged_files[*file] != **bytes)
        .map(|(file, _)| file)
        .collect();
    assert!(
        differ.is_empty(),
        "merged report differs from the single run in {differ:?}"
    );
}

/// The journal names N shards of the fixture write, in shard order.
fn journals(n: u32) -> Vec<String> {
    (1..=n)
        .map(|k| format!("{SCENARIO_NAME}.shard-{k}-of-{n}.journal"))
        .collect()
}

/// Asserts that `dir` holds the journals of shards 1 to N of N.
fn assert_journals(dir: &Path, n: u32) {
    let found: Vec<String> = common::entries(dir)
        .into_iter()
        .filter(|f| f.ends_with(".journal"))
        .collect();
    let mut expected = journals(n);
    expected.sort();
    assert_eq!(found, expected, "journals in {}", dir.display());
}

/// The number `word` is followed by in `text` (`array job 12` -> 12).
fn number_after(text: &str, word: &str) -> u32 {
    let rest = &text[text
        .find(word)
        .unwrap_or_else(|| panic!("no `{word}` in {text:?}"))
        + word.len()..];
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after `{word}` in {text:?}"))
}

/// What one submission of the Slurm example did: scontrol's records of
/// the array's tasks (sorted by task id) and of the merge job.
struct Submission {
    tasks: Vec<slurm::JobRecord>,
    merge: Vec<slurm::JobRecord>,
    /// What to read if an assertion fails (see `Cluster::diagnostics`).
    diagnostics: String,
}

impl Submission {
    /// The array's task ids, in order.
    fn task_ids(&self) -> Vec<&str> {
        self.tasks.iter().map(|t| t.get("ArrayTaskId")).collect()
    }
}

/// Runs the example's own submission script as a designer runs it
/// (`submit-slurm.sh small.toml shards merged`, from the sandbox: the
/// array from slurm.sbatch, `--array=0-7` as written, and the merge after
/// it) with `skirmish` as the binary, and waits until both jobs are over.
fn submit_and_wait(cluster: &slurm::Cluster, sb: &Sandbox, skirmish: &Path) -> Submission {
    let submit = cluster
        .command(repo("scenarios/cluster/submit-slurm.sh"))
        .args(["small.toml", "shards", "merged"])
        .env("SKIRMISH", skirmish)
        .current_dir(sb.path())
        .output()
        .expect("run submit-slurm.sh");
    let said = String::from_utf8_lossy(&submit.stdout).into_owned();
    assert!(
        submit.status.success(),
        "submit-slurm.sh failed: {said}{}",
        String::from_utf8_lossy(&submit.stderr)
    );
    let ids = [
        number_after(&said, "array job"),
        number_after(&said, "merge: job"),
    ];
    if let Err(e) = cluster.wait(&ids, Duration::from_secs(180)) {
        panic!("{e}\n{}", cluster.diagnostics(&ids, sb.path()));
    }
    let mut tasks = cluster.jobs(ids[0]);
    tasks.sort_by_key(|t| t.get("ArrayTaskId").parse::<u32>().unwrap_or(u32::MAX));
    Submission {
        tasks,
        merge: cluster.jobs(ids[1]),
        diagnostics: cluster.diagnostics(&ids, sb.path()),
    }
}

/// The 8 task ids of the example's array.
const TASK_IDS: [&str; 8] = ["0", "1", "2", "3", "4", "5", "6", "7"];

#[test]
fn slurm_array_shards_merge_to_the_single_run_report() {
    let cluster = slurm::Cluster::start();
    let sb = Sandbox::new();
    let scenario = sb.write("small.toml", common::SMALL);

    let done = submit_and_wait(&cluster, &sb, Path::new(SKIRMISH));
    let all_ok = done
        .tasks
        .iter()
        .chain(&done.merge)
        .all(slurm::JobRecord::succeeded);
    assert!(
        all_ok && done.task_ids() == TASK_IDS,
        "every task of the 8-task array and the merge succeed\n{}",
        done.diagnostics
    );
    // The merge was held until the whole array had finished.
    let merge_start = done.merge[0].get("StartTime");
    for task in &done.tasks {
        assert!(
            task.get("EndTime") <= merge_start,
            "merge started at {merge_start}, before {} ended",
            task.describe()
        );
    }

    assert_journals(&sb.join("shards"), 8);
    let single = single_run(&sb, scenario, "single");
    assert_same_report(&sb.join("merged").join(SCENARIO_NAME), &single);
}

/// The README's recovery procedure: a task fails, Slurm cancels the merge
/// instead of running it on 7 journals; submitting again with the same
/// arguments leaves the finished shards' journals as they were, runs the
/// missing shard and the merge. Runs beside the test above, so two test
/// clusters share the machine.
#[test]
fn slurm_failed_shard_cancels_the_merge_and_resubmitting_finishes_the_report() {
    let cluster = slurm::Cluster::start();
    let sb = Sandbox::new();
    let scenario = sb.write("small.toml", common::SMALL);
    // The binary as the jobs see it: array task 3 fails the first time it
    // runs (mkdir is atomic: exactly one run fails), everything else is
    // the real skirmish.
    sb.write(
        "skirmish-failing-once",
        &format!(
            "#!/bin/sh\n\
             if [ \"${{SLURM_ARRAY_TASK_ID:-}}\" = 3 ] && mkdir task-3-failed 2>/dev/null; then\n\
             echo 'task 3 fails on purpose' >&2; exit 1\n\
             fi\n\
             exec '{SKIRMISH}' \"$@\"\n"
        ),
    );
    let wrapper = sb.join("skirmish-failing-once");
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .expect("make the wrapper executable");

    let first = submit_and_wait(&cluster, &sb, &wrapper);
    let states: Vec<(&str, &str)> = first
        .tasks
        .iter()
        .map(|t| (t.get("ArrayTaskId"), t.get("JobState")))
        .collect();
    let expected: Vec<(&str, &str)> = TASK_IDS
        .iter()
        .map(|&id| (id, if id == "3" { "FAILED" } else { "COMPLETED" }))
        .collect();
    assert_eq!(
        states, expected,
        "task 3 alone failed\n{}",
        first.diagnostics
    );
    assert_eq!(
        (first.merge[0].get("JobState"), first.merge[0].get("Reason")),
        ("CANCELLED", "DependencyNeverSatisfied"),
        "the merge was cancelled for its failed dependency\n{}",
        first.diagnostics
    );
    assert!(!sb.join("merged").exists(), "no report from 7 shards");
    let finished: Vec<(String, Vec<u8>)> = journals(8)
        .into_iter()
        .filter(|j| j != "small.shard-4-of-8.journal")
        .map(|j| {
            let bytes = std::fs::read(sb.join("shards").join(&j))
                .unwrap_or_else(|e| panic!("{j} after the first submission: {e}"));
            (j, bytes)
        })
        .collect();

    let second = submit_and_wait(&cluster, &sb, &wrapper);
    let all_ok = second
        .tasks
        .iter()
        .chain(&second.merge)
        .all(slurm::JobRecord::succeeded);
    assert!(
        all_ok && second.task_ids() == TASK_IDS,
        "the resubmitted array and its merge succeed\n{}",
        second.diagnostics
    );
    for (journal, bytes) in &finished {
        let now = std::fs::read(sb.join("shards").join(journal)).expect("journal kept");
        assert!(
            now == *bytes,
            "{journal} was finished, yet changed when resubmitted"
        );
    }
    assert_journals(&sb.join("shards"), 8);
    let single = single_run(&sb, scenario, "single");
    assert_same_report(&sb.join("merged").join(SCENARIO_NAME), &single);
}

#[test]
fn k8s_manifest_is_an_indexed_job() {
    let m = Manifest::load();
    assert_eq!(
        m.claims.len(),
        1,
        "one PersistentVolumeClaim: the shared volume"
    );
    let claim = &m.claims[0];
    let claim_name = claim.metadata.name.as_deref().expect("the claim is named");
    let access = claim
        .spec
        .as_ref()
        .and_then(|s| s.access_modes.clone())
        .unwrap_or_default();
    assert_eq!(
        access,
        ["ReadWriteMany"],
        "pods on several nodes write the volume at once"
    );
    assert_eq!(m.jobs.len(), 2, "two Jobs: the shards and the merge");

    let shards = m.shards();
    let merge = m.merge();
    for job in [shards, merge] {
        // What the API server requires of every Job.
        let restart = pod_spec(job).restart_policy.as_deref();
        assert!(
            matches!(restart, Some("Never" | "OnFailure")),
            "{}: a Job's pods restart Never or OnFailure, not {restart:?}",
            name(job)
        );
    }

    // An Indexed Job of N pods, all at once, each running `--shard auto/N`.
    let s = spec(shards);
    let n = s.completions.expect("an Indexed Job sets completions");
    assert!(n >= 2, "at least two shards");
    assert_eq!(s.parallelism, Some(n), "parallelism = completions");
    if s.pod_failure_policy.is_some() || s.backoff_limit_per_index.is_some() {
        assert_eq!(
            pod_spec(shards).restart_policy.as_deref(),
            Some("Never"),
            "the API allows podFailurePolicy and backoffLimitPerIndex only with restartPolicy Never"
        );
    }
    let shard = Pod::of(shards);
    assert_eq!(shard.argv()[1], "run", "shards run the scenario");
    assert_eq!(
        shard.after("--shard"),
        format!("auto/{n}"),
        "the shard count is N"
    );
    assert!(
        !shard.env().contains_key("JOB_COMPLETION_INDEX"),
        "Kubernetes sets JOB_COMPLETION_INDEX itself; the manifest must not"
    );
    if let Some(policy) = &s.pod_failure_policy {
        for rule in &policy.rules {
            if let Some(codes) = &rule.on_exit_codes {
                let container = codes.container_name.as_deref();
                assert!(
                    container.is_none() || container == Some(shard.container.name.as_str()),
                    "podFailurePolicy names container {container:?}, which the pod lacks"
                );
            }
        }
    }

    // Shards write their journals onto the claim; the merge reads them from
    // the same claim, expects N of them, and writes the report onto it.
    let on_claim = |pod: &Pod, path: &str| -> Option<String> {
        pod.mounts().into_iter().find_map(|(mount, volume)| {
            let claimed = volume.persistent_volume_claim.as_ref()?.claim_name == claim_name;
            let rest = path.strip_prefix(mount)?;
            (claimed && (rest.is_empty() || rest.starts_with('/'))).then(|| rest.to_owned())
        })
    };
    let shard_out = shard.after("--out");
    let journals_at = on_claim(&shard, shard_out)
        .unwrap_or_else(|| panic!("shards write {shard_out}, not on claim {claim_name}"));

    let merger = Pod::of(merge);
    let (folder, pattern) = merger
        .after("merge")
        .rsplit_once('/')
        .expect("the merge's first argument is a path");
    assert_eq!(
        on_claim(&merger, folder),
        Some(journals_at),
        "the merge reads {folder}, the shards write {shard_out} (claim {claim_name})"
    );
    assert_eq!(
        pattern,
        format!("*.shard-*-of-{n}.journal"),
        "the merge takes the N shards' journals"
    );
    let merge_out = merger.after("--out");
    assert!(
        on_claim(&merger, merge_out).is_some(),
        "the merge writes {merge_out}, which is not on claim {claim_name}"
    );

    // The documented commands select each step by label and wait for each
    // Job by name.
    let step = |labels: &Option<std::collections::BTreeMap<String, String>>| {
        labels
            .as_ref()
            .and_then(|l| l.get("skirmish/step"))
            .cloned()
    };
    assert_eq!(step(&claim.metadata.labels).as_deref(), Some("shards"));
    assert_eq!(step(&shards.metadata.labels).as_deref(), Some("shards"));
    assert_eq!(step(&merge.metadata.labels).as_deref(), Some("merge"));
    for (label, job) in [("shards", shards), ("merge", merge)] {
        for doc in [
            format!("-l skirmish/step={label}"),
            format!("--for=condition=complete job/{}", name(job)),
        ] {
            assert!(
                m.text.contains(&doc),
                "{} documents `{doc}`",
                manifest::PATH
            );
        }
    }
}

/// The local folder standing for `volume`: a claim's by its claim name
/// (the Jobs share it), a ConfigMap's by its name.
fn local_folder(sb: &Sandbox, volume: &Volume) -> PathBuf {
    if let Some(claim) = &volume.persistent_volume_claim {
        sb.join(&format!("claim-{}", claim.claim_name))
    } else if let Some(config) = &volume.config_map {
        sb.join(&format!("configmap-{}", config.name))
    } else {
        panic!("volume {} is neither a claim nor a ConfigMap", volume.name)
    }
}

/// Makes `volume`'s local folder what Kubernetes would mount: a claim
/// starts empty; a ConfigMap made from the scenario file, as the manifest
/// says (`kubectl create configmap --from-file`), holds it under each of
/// its items' paths.
fn provision(sb: &Sandbox, volume: &Volume) {
    let dir = local_folder(sb, volume);
    std::fs::create_dir_all(&dir).expect("create a volume's folder");
    if let Some(config) = &volume.config_map {
        for item in config.items.iter().flatten() {
            std::fs::write(dir.join(&item.path), common::SMALL).expect("write the scenario");
        }
    }
}

#[test]
fn k8s_pods_as_local_processes_merge_to_the_single_run_report() {
    let m = Manifest::load();
    let sb = Sandbox::new();
    let shards = m.shards();
    let shard = Pod::of(shards);
    let merger = Pod::of(m.merge());
    let n = spec(shards).completions.expect("completions");
    // The image's skirmish, which the built binary stands for.
    let binary = shard.argv()[0];
    let folder_of = |volume: &Volume| local_folder(&sb, volume);
    for pod in [&shard, &merger] {
        for (_, volume) in pod.mounts() {
            provision(&sb, volume);
        }
    }
    // The image's working folder: nothing is written there.
    let cwd = sb.join(sb.mkdir("pod-cwd"));

    // All N pods at once, as parallelism = N runs them, each with its index.
    let pods: Vec<(i32, Child)> = (0..n)
        .map(|i| {
            let index = [("JOB_COMPLETION_INDEX", i.to_string())];
            let mut cmd = shard.command(binary, Path::new(SKIRMISH), folder_of, &cwd, &index);
            cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
            (i, cmd.spawn().expect("start a shard"))
        })
        .collect();
    for (i, pod) in pods {
        let out = pod.wait_with_output().expect("shard runs");
        assert!(
            out.status.success(),
            "pod {i} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let shard_out = shard.local(shard.after("--out"), folder_of);
    assert_journals(Path::new(&shard_out), u32::try_from(n).expect("N > 0"));

    let out = merger
        .command(binary, Path::new(SKIRMISH), folder_of, &cwd, &[])
        .output()
        .expect("run the merge");
    assert!(
        out.status.success(),
        "merge failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Under the ConfigMap item's file name, which fights.md's commands name.
    let scenario = sb.write("scenario.toml", common::SMALL);
    let single = single_run(&sb, scenario, "single");
    let merged = Path::new(&merger.local(merger.after("--out"), folder_of)).join(SCENARIO_NAME);
    assert_same_report(&merged, &single);
}
