//! [`StateTable`]: the distinct fight states the exact engine has reached,
//! each numbered once.
//!
//! A state is the units of the fight, its turn order and its [`Between`]
//! (side counts, focus, opening side, where the round stands, the counters
//! the rules read). States are stored flat, without an allocation each: a
//! header per state, the units and orders of all states in two arenas, and
//! an open-addressing index of header numbers, looked up by a hash of the
//! state computed without copying it.

use std::hash::{Hash, Hasher};

use crate::dice::splitmix64;
use crate::engine::{Between, Combatant};

/// One state's header.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub hash: u64,
    pub between: Between,
}

const EMPTY: u32 = u32::MAX;

/// Fight states, numbered from 0 in the order they were added.
#[derive(Clone, Debug)]
pub struct StateTable<S> {
    /// Units per state.
    n: usize,
    entries: Vec<Entry>,
    units: Vec<Combatant<S>>,
    orders: Vec<u8>,
    /// Entry numbers by hash; `EMPTY` where free. A power of two long, at
    /// most half full.
    index: Vec<u32>,
}

/// A state as the table hashes and compares it.
#[derive(Clone, Copy)]
pub struct Key<'a, S> {
    pub units: &'a [Combatant<S>],
    pub order: &'a [u8],
    pub between: &'a Between,
}

impl<S: Hash> Key<'_, S> {
    pub fn hash(&self) -> u64 {
        let mut h = Fx(0);
        self.units.hash(&mut h);
        self.order.hash(&mut h);
        self.between.hash(&mut h);
        splitmix64(h.0)
    }
}

impl<S: Copy + Eq + Hash> StateTable<S> {
    pub fn new(n: usize) -> Self {
        StateTable {
            n,
            entries: Vec::new(),
            units: Vec::new(),
            orders: Vec::new(),
            index: vec![EMPTY; 16],
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// State `i`'s units and turn order.
    pub fn state(&self, i: usize) -> (&[Combatant<S>], &[u8]) {
        let n = self.n;
        (
            &self.units[i * n..(i + 1) * n],
            &self.orders[i * n..(i + 1) * n],
        )
    }

    /// The number of state `key`, numbered now if it is new (and whether
    /// it is).
    pub fn add(&mut self, key: Key<'_, S>) -> (u32, bool) {
        let hash = key.hash();
        self.add_hashed(hash, key)
    }

    /// [`StateTable::add`] with the key's hash already known.
    pub fn add_hashed(&mut self, hash: u64, key: Key<'_, S>) -> (u32, bool) {
        let mask = self.index.len() - 1;
        let mut at = (hash as usize) & mask;
        loop {
            let slot = self.index[at];
            if slot == EMPTY {
                break;
            }
            let i = slot as usize;
            let e = &self.entries[i];
            if e.hash == hash && e.between == *key.between {
                let (units, order) = self.state(i);
                if units == key.units && order == key.order {
                    return (slot, false);
                }
            }
            at = (at + 1) & mask;
        }
        let id = self.entries.len() as u32;
        self.index[at] = id;
        self.entries.push(Entry {
            hash,
            between: *key.between,
        });
        self.units.extend_from_slice(key.units);
        self.orders.extend_from_slice(key.order);
        if self.entries.len() * 2 > self.index.len() {
            self.grow();
        }
        (id, true)
    }

    fn grow(&mut self) {
        let size = self.index.len() * 2;
        self.index.clear();
        self.index.resize(size, EMPTY);
        let mask = size - 1;
        for (i, e) in self.entries.iter().enumerate() {
            let mut at = (e.hash as usize) & mask;
            while self.index[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.index[at] = i as u32;
        }
    }
}

/// A fast multiplicative hasher (the Firefox/rustc one); its output is
/// mixed once more before use, so the low bits index well.
struct Fx(u64);

impl Fx {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
