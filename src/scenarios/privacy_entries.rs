//! The explain-ε entries of a sweep whose rows repeat a release: a private release run at
//! several seeds, dimensions or sizes is the same mechanism with the same report, so the
//! panel shows it once. Written once here for every scenario that shows a release by its
//! first row (the classifier, FLUTE, trace regression).

use super::adapter::Rows;
use super::explain::ExplainEntry;
use crate::privacy::PrivacyReport;

impl<R> Rows<R> {
    /// One explain-ε entry per release among the private rows, in order of
    /// first appearance: `release(row)` says which release a row is (`None`:
    /// the panel does not show it), and `entry` writes the entry of its first
    /// row from that row's report.
    pub fn one_entry_per_release<K: PartialEq>(
        &self,
        release: impl Fn(&R) -> Option<K>,
        entry: impl Fn(&R, &PrivacyReport) -> ExplainEntry,
    ) -> Vec<ExplainEntry> {
        let mut seen: Vec<K> = Vec::new();
        let mut entries = Vec::new();
        for (r, p) in self.private() {
            let Some(key) = release(r) else { continue };
            if !seen.contains(&key) {
                seen.push(key);
                entries.push(entry(r, p));
            }
        }
        entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::{Calibration, GaussianStage, Relation};

    fn report(epsilon: f64) -> PrivacyReport {
        let stage = GaussianStage::new("rounds", "Gaussian noise", 1.0, 2.0, 10);
        PrivacyReport::from_stages(
            vec![stage],
            1e-5,
            Relation::ReplaceOne,
            Calibration::Exact,
            epsilon,
        )
        .unwrap()
    }

    #[test]
    fn each_release_is_shown_once_by_its_first_private_row() {
        // (release, seed): release 2 is hidden, release 4 is not private.
        let rows = Rows {
            rows: vec![(4, 0), (1, 0), (2, 0), (1, 1), (3, 0), (3, 1), (2, 1)],
            reports: vec![
                None,
                Some(report(1.0)),
                Some(report(2.0)),
                Some(report(3.0)),
            ]
            .into_iter()
            .chain([Some(report(4.0)), Some(report(5.0)), Some(report(6.0))])
            .collect(),
        };
        let entries = rows.one_entry_per_release(
            |&(release, _)| (release != 2).then_some(release),
            |&(release, seed), p| ExplainEntry {
                summary: format!("{release} at seed {seed}, target ε = {}", p.epsilon_target),
                paragraphs: Vec::new(),
                tables: Vec::new(),
                notes: Vec::new(),
                reading: None,
                attacker: None,
                release: None,
            },
        );
        let shown: Vec<&str> = entries.iter().map(|e| e.summary.as_str()).collect();
        assert_eq!(
            shown,
            ["1 at seed 0, target ε = 1", "3 at seed 0, target ε = 4"]
        );
    }
}
