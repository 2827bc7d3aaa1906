//! The Kubernetes example, `scenarios/cluster/k8s-indexed-job.yaml`, read as
//! the Kubernetes API reads it, and its pods turned into local processes.
//!
//! Reading: every YAML document is deserialized into the API's own type for
//! its kind (`k8s-openapi`, the Kubernetes 1.33 API), which checks
//! `apiVersion` and `kind` and the type of every field. The API server
//! ignores a field it does not know (a misspelt `completionMode` would
//! leave an ordinary Job), so each document is also serialized back and
//! must give exactly what was read: a field the type dropped is named.
//!
//! Running: [`Pod`] is one container of a Job's pod template with its
//! volumes, and [`Pod::command`] the local process that does what the pod
//! would do: the image's binary replaced by the built one, each mount path
//! by a local folder standing for that volume, and the environment exactly
//! the container's (nothing inherited from the test).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{Container, PersistentVolumeClaim, PodSpec, Volume};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The example, relative to the repository root.
pub const PATH: &str = "scenarios/cluster/k8s-indexed-job.yaml";

/// `PATH` of a container image without one of its own, as container
/// runtimes set it: part of the pod's environment though not in the
/// manifest.
const IMAGE_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// The objects of the example, by kind.
pub struct Manifest {
    /// The manifest's text, for checks on its comments.
    pub text: String,
    pub claims: Vec<PersistentVolumeClaim>,
    pub jobs: Vec<Job>,
}

impl Manifest {
    /// Reads and strictly parses the example; panics naming the document
    /// and the field on anything the API would refuse or ignore.
    pub fn load() -> Self {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(PATH);
        let text = std::fs::read_to_string(&path).expect("read the Kubernetes example");
        let mut claims = Vec::new();
        let mut jobs = Vec::new();
        for (i, document) in serde_yaml::Deserializer::from_str(&text).enumerate() {
            let doc = Value::deserialize(document)
                .unwrap_or_else(|e| panic!("{PATH}: document {}: not YAML: {e}", i + 1));
            let where_ = format!("{PATH}: document {}", i + 1);
            match doc["kind"].as_str() {
                Some("PersistentVolumeClaim") => claims.push(strict(&doc, &where_)),
                Some("Job") => jobs.push(strict(&doc, &where_)),
                other => panic!("{where_}: kind {other:?}: expected PersistentVolumeClaim or Job"),
            }
        }
        Manifest { text, claims, jobs }
    }

    /// The one Indexed Job (the shards).
    pub fn shards(&self) -> &Job {
        let indexed: Vec<&Job> = self.jobs.iter().filter(|j| is_indexed(j)).collect();
        assert_eq!(indexed.len(), 1, "{PATH}: exactly one Indexed Job");
        indexed[0]
    }

    /// The one Job that is not Indexed (the merge).
    pub fn merge(&self) -> &Job {
        let plain: Vec<&Job> = self.jobs.iter().filter(|j| !is_indexed(j)).collect();
        assert_eq!(
            plain.len(),
            1,
            "{PATH}: exactly one Job besides the Indexed one"
        );
        plain[0]
    }
}

/// Whether `job` runs in Indexed completion mode.
pub fn is_indexed(job: &Job) -> bool {
    spec(job).completion_mode.as_deref() == Some("Indexed")
}

/// `job`'s spec, which every Job has.
pub fn spec(job: &Job) -> &k8s_openapi::api::batch::v1::JobSpec {
    job.spec.as_ref().expect("a Job has a spec")
}

/// The pod spec of `job`'s template.
pub fn pod_spec(job: &Job) -> &PodSpec {
    spec(job)
        .template
        .spec
        .as_ref()
        .expect("a Job's template has a pod spec")
}

/// `job`'s name.
pub fn name(job: &Job) -> &str {
    job.metadata.name.as_deref().expect("every object is named")
}

/// `T` read from `doc`, which must hold nothing `T` does not: the API would
/// silently ignore it.
fn strict<T: DeserializeOwned + Serialize>(doc: &Value, where_: &str) -> T {
    let typed: T = serde_json::from_value(doc.clone())
        .unwrap_or_else(|e| panic!("{where_}: not what the Kubernetes API accepts: {e}"));
    let back = serde_json::to_value(&typed).expect("serialize back");
    let mut dropped = Vec::new();
    dropped_fields(doc, &back, String::new(), &mut dropped);
    assert!(
        dropped.is_empty(),
        "{where_}: fields the Kubernetes API does not know (it would ignore them): {dropped:?}"
    );
    assert_eq!(&back, doc, "{where_}: reads back differently");
    typed
}

/// Pushes onto `out` the path of every object key of `read` that is not in
/// `back`, looking inside arrays and objects both have.
fn dropped_fields(read: &Value, back: &Value, at: String, out: &mut Vec<String>) {
    match (read, back) {
        (Value::Object(r), Value::Object(b)) => {
            for (key, value) in r {
                let path = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                match b.get(key) {
                    Some(other) => dropped_fields(value, other, path, out),
                    None => out.push(path),
                }
            }
        }
        (Value::Array(r), Value::Array(b)) => {
            for (i, (value, other)) in r.iter().zip(b).enumerate() {
                dropped_fields(value, other, format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// One container of a Job's pod template, with the volumes it mounts.
pub struct Pod<'a> {
    pub container: &'a Container,
    pub volumes: &'a [Volume],
}

impl<'a> Pod<'a> {
    /// The container of `job` (a pod of these examples has one).
    pub fn of(job: &'a Job) -> Self {
        let spec = pod_spec(job);
        assert_eq!(spec.containers.len(), 1, "{}: one container", name(job));
        Pod {
            container: &spec.containers[0],
            volumes: spec.volumes.as_deref().unwrap_or_default(),
        }
    }

    /// The container's command line: `command` then `args`.
    pub fn argv(&self) -> Vec<&'a str> {
        let c = self.container;
        c.command
            .iter()
            .chain(c.args.iter())
            .flatten()
            .map(String::as_str)
            .collect()
    }

    /// The words of the command line, a `sh -c` script's split too.
    pub fn words(&self) -> Vec<&'a str> {
        self.argv()
            .into_iter()
            .flat_map(str::split_whitespace)
            .collect()
    }

    /// The word after the first `word` of the command line.
    pub fn after(&self, word: &str) -> &'a str {
        let words = self.words();
        let at = words.iter().position(|w| *w == word);
        match at.and_then(|i| words.get(i + 1)) {
            Some(next) => next,
            None => panic!("{PATH}: nothing after `{word}` in {words:?}"),
        }
    }

    /// `(mount path, volume)` for each volume the container mounts.
    pub fn mounts(&self) -> Vec<(&'a str, &'a Volume)> {
        self.container
            .volume_mounts
            .iter()
            .flatten()
            .map(|m| {
                let volume = self
                    .volumes
                    .iter()
                    .find(|v| v.name == m.name)
                    .unwrap_or_else(|| panic!("{PATH}: mount of undeclared volume {}", m.name));
                (m.mount_path.as_str(), volume)
            })
            .collect()
    }

    /// The environment the manifest gives the container: `name=value`
    /// pairs (a value taken from elsewhere cannot run locally).
    pub fn env(&self) -> BTreeMap<&'a str, &'a str> {
        self.container
            .env
            .iter()
            .flatten()
            .map(|e| {
                let value = e.value.as_deref().unwrap_or_else(|| {
                    panic!("{PATH}: env {} takes its value from the cluster", e.name)
                });
                (e.name.as_str(), value)
            })
            .collect()
    }

    /// `path` as seen in the container, as a local path: each mount path
    /// replaced by the folder `folder_of` gives for its volume.
    pub fn local(&self, path: &str, folder_of: impl Fn(&Volume) -> PathBuf) -> String {
        map_paths(path, &self.mount_map(&folder_of))
    }

    /// `(mount path, local folder)` for each mount, the longest mount path
    /// first so that a mount inside another mount wins.
    fn mount_map(&self, folder_of: &impl Fn(&Volume) -> PathBuf) -> Vec<(String, String)> {
        let mut paths: Vec<(String, String)> = self
            .mounts()
            .into_iter()
            .map(|(mount, volume)| (mount.to_owned(), folder_of(volume).display().to_string()))
            .collect();
        paths.sort_by_key(|(mount, _)| std::cmp::Reverse(mount.len()));
        paths
    }

    /// The process that does locally what this container does: `binary`
    /// (the image's skirmish) replaced by `local_binary`, each mount path by
    /// the folder `folder_of` gives for its volume, `cwd` as the working
    /// folder, and the environment the container's own plus `extra_env`.
    pub fn command(
        &self,
        binary: &str,
        local_binary: &Path,
        folder_of: impl Fn(&Volume) -> PathBuf,
        cwd: &Path,
        extra_env: &[(&str, String)],
    ) -> Command {
        let mut paths = self.mount_map(&folder_of);
        paths.insert(0, (binary.to_owned(), local_binary.display().to_string()));
        let argv: Vec<String> = self.argv().iter().map(|a| map_paths(a, &paths)).collect();
        // The program is an absolute path: the image's binary (mapped above)
        // or its /bin/sh, which this machine has too.
        assert!(
            argv[0].starts_with('/'),
            "{PATH}: command {:?} is not absolute",
            argv[0]
        );
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..]).env_clear().env("PATH", IMAGE_PATH);
        cmd.envs(self.env());
        for (k, v) in extra_env {
            cmd.env(k, v);
        }
        cmd.current_dir(cwd);
        cmd
    }
}

/// `text` with every path `from` (as a whole path: followed by `/`, a space
/// or the end) replaced by `to`, for each `(from, to)` in order.
fn map_paths(text: &str, paths: &[(String, String)]) -> String {
    let mut out = text.to_owned();
    for (from, to) in paths {
        let mut mapped = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(from.as_str()) {
            let after = &rest[at + from.len()..];
            let before_ok = at == 0 || rest[..at].ends_with([' ', '=']);
            let after_ok = after.is_empty() || after.starts_with(['/', ' ']);
            mapped.push_str(&rest[..at]);
            mapped.push_str(if before_ok && after_ok { to } else { from });
            rest = after;
        }
        mapped.push_str(rest);
        out = mapped;
    }
    out
}
