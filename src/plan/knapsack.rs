//! The chain stage's 0/1 knapsack (SPEC §4): among sets of candidates whose integer
//! weights sum to at least `need`, the lowest total cost; ties: fewer entities, then
//! the larger true sum of weights, then the lexicographically smallest sorted
//! candidate positions.
//!
//! Dynamic programme over the candidates in impact order with the weight sum capped at
//! `need`. Every tie-break is preserved when the same later item is added to two sets
//! of equal size, so keeping the best set per capped weight is exact.

/// Best set found so far for one capped weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Best {
    cost: u64,
    count: u32,
    true_sum: u64,
    /// Bit i set = candidate i chosen (at most 64 candidates).
    mask: u64,
}

impl Best {
    /// This set with candidate `i` (weight `w`, cost `c`) added.
    fn with(&self, i: usize, w: u64, c: u64) -> Best {
        Best {
            cost: self.cost.saturating_add(c),
            count: self.count + 1,
            true_sum: self.true_sum.saturating_add(w),
            mask: self.mask | (1u64 << i),
        }
    }

    /// The chosen positions among `n` candidates, or None for the empty set when
    /// `need` is positive.
    fn positions(&self, need: u64, n: usize) -> Option<Vec<usize>> {
        if need > 0 && self.count == 0 {
            return None;
        }
        Some((0..n).filter(|i| self.mask & (1u64 << i) != 0).collect())
    }

    fn better_than(&self, other: &Best) -> bool {
        if self.cost != other.cost {
            return self.cost < other.cost;
        }
        if self.count != other.count {
            return self.count < other.count;
        }
        if self.true_sum != other.true_sum {
            return self.true_sum > other.true_sum;
        }
        // Equal sizes: the set holding the lowest differing position is
        // lexicographically smaller.
        let diff = self.mask ^ other.mask;
        diff != 0 && (self.mask & diff & diff.wrapping_neg()) != 0
    }
}

/// `items[i] = (weight, cost)` in impact order (at most 64). Returns the chosen item
/// positions in impact order, or None when no set reaches `need`.
///
/// Keeps only the Pareto front of partial sets: a set is dropped when another set is
/// at least as good in the final order (cost, count, true sum, positions) and reaches
/// at least the same capped weight, because any extension of the dropped set is then
/// matched or beaten by the same extension of the other. The front stays small (costs
/// are small integers), so this is far cheaper than a table over every capped weight.
pub fn min_cost_cover(items: &[(u64, u64)], need: u64) -> Option<Vec<usize>> {
    let items = &items[..items.len().min(64)];
    let start = Best {
        cost: 0,
        count: 0,
        true_sum: 0,
        mask: 0,
    };
    let mut front: Vec<Best> = vec![start];
    let mut next: Vec<Best> = Vec::new();
    for (i, &(w, c)) in items.iter().enumerate() {
        next.clear();
        next.extend_from_slice(&front);
        next.extend(front.iter().map(|from| from.with(i, w, c)));
        next.sort_by(order);
        front.clear();
        let mut best_capped: Option<u64> = None;
        for s in &next {
            let capped = s.true_sum.min(need);
            if best_capped.is_none_or(|b| capped > b) {
                best_capped = Some(capped);
                front.push(*s);
            }
        }
    }
    front
        .iter()
        .find(|s| s.true_sum >= need)?
        .positions(need, items.len())
}

fn order(a: &Best, b: &Best) -> std::cmp::Ordering {
    if a.better_than(b) {
        std::cmp::Ordering::Less
    } else if b.better_than(a) {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }
}

/// Reference implementation: a table over every capped weight.
#[cfg(test)]
fn min_cost_cover_dense(items: &[(u64, u64)], need: u64) -> Option<Vec<usize>> {
    let items = &items[..items.len().min(64)];
    let cap = need as usize;
    let mut dp: Vec<Option<Best>> = vec![None; cap + 1];
    dp[0] = Some(Best {
        cost: 0,
        count: 0,
        true_sum: 0,
        mask: 0,
    });
    for (i, &(w, c)) in items.iter().enumerate() {
        // Descending, so every source state is read before this item updates it.
        for s in (0..=cap).rev() {
            let Some(from) = dp[s] else { continue };
            let to = (s as u64).saturating_add(w).min(need) as usize;
            let cand = from.with(i, w, c);
            if dp[to].is_none_or(|cur| cand.better_than(&cur)) {
                dp[to] = Some(cand);
            }
        }
    }
    dp[cap]?.positions(need, items.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_lowest_cost_cover() {
        // need 10: {0} costs 5, {1,2} costs 2+2=4 → {1,2}
        assert_eq!(
            min_cost_cover(&[(10, 5), (6, 2), (5, 2)], 10),
            Some(vec![1, 2])
        );
    }

    #[test]
    fn ties_prefer_fewer_then_heavier_then_earlier() {
        // equal cost 2: {0} (one entity) beats {1,2}
        assert_eq!(
            min_cost_cover(&[(10, 2), (6, 1), (5, 1)], 10),
            Some(vec![0])
        );
        // equal cost and count: larger true sum wins ({1} weight 12 over {0} weight 10)
        assert_eq!(min_cost_cover(&[(10, 1), (12, 1)], 10), Some(vec![1]));
        // everything equal: earlier position wins
        assert_eq!(min_cost_cover(&[(10, 1), (10, 1)], 10), Some(vec![0]));
        assert_eq!(
            min_cost_cover(&[(5, 1), (5, 1), (5, 1)], 10),
            Some(vec![0, 1])
        );
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
        #[test]
        fn pareto_front_matches_the_dense_table(
            items in prop::collection::vec((1u64..400, 1u64..6), 0..14),
            need in 1u64..1500,
        ) {
            prop_assert_eq!(min_cost_cover(&items, need), min_cost_cover_dense(&items, need));
        }
    }

    #[test]
    fn unreachable_need_is_none() {
        assert_eq!(min_cost_cover(&[(3, 1), (4, 1)], 10), None);
        assert_eq!(min_cost_cover(&[], 1), None);
    }
}
