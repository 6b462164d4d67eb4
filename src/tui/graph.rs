//! A deterministic layout of the document graph for the linkage pane. Positions come
//! from a Fruchterman–Reingold force simulation seeded by corpus order (documents
//! start on a circle in corpus order; no randomness), so the same corpus always draws
//! the same picture and linked clusters pull apart from each other. The layout is
//! recomputed only when the kept edges change, never while drawing.

use ratatui::layout::{Position, Rect};

use crate::analysis::{Analysis, Model};

/// Beyond this many documents the whole-graph layout is skipped and the pane shows
/// the selected document's neighbourhood (the full picture would be a smear anyway).
pub const MAX_LAYOUT_DOCS: usize = 400;

/// Node positions in [0, 1]², by model document index.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GraphLayout {
    pub positions: Vec<(f64, f64)>,
    /// (documents, edges) the layout was computed for.
    key: (usize, usize),
}

impl GraphLayout {
    /// Recomputes the layout if the graph changed.
    pub fn update(&mut self, model: &Model, an: &Analysis) {
        let n = model.docs.len();
        let key = (n, an.edges.len());
        if key == self.key && self.positions.len() == n.min(MAX_LAYOUT_DOCS + 1) {
            return;
        }
        self.key = key;
        if n > MAX_LAYOUT_DOCS {
            self.positions.clear();
            return;
        }
        self.positions = component_layout(
            n,
            &an.edges
                .iter()
                .map(|e| (e.a as usize, e.b as usize))
                .collect::<Vec<_>>(),
        );
    }

    /// True when the whole graph can be drawn legibly in `area`.
    pub fn whole_graph_fits(&self, n: usize, area: Rect) -> bool {
        !self.positions.is_empty()
            && self.positions.len() == n
            && n <= (area.width as usize * area.height as usize) / 6
    }

    /// Node positions for drawing in `area`: the whole graph, or the neighbourhood
    /// of `selected` on a circle around it. Returns (model doc, x, y) in [0,1]².
    pub fn visible(
        &self,
        area: Rect,
        selected: Option<usize>,
        an: &Analysis,
    ) -> Vec<(usize, f64, f64)> {
        let n = an.n;
        if self.whole_graph_fits(n, area) {
            return self
                .positions
                .iter()
                .enumerate()
                .map(|(i, (x, y))| (i, *x, *y))
                .collect();
        }
        let Some(sel) = selected.filter(|s| *s < n) else {
            return Vec::new();
        };
        let neighbours = neighbours(an, sel);
        let k = neighbours.len().max(1) as f64;
        let mut out = vec![(sel, 0.5, 0.5)];
        for (j, d) in neighbours.into_iter().enumerate() {
            let a = std::f64::consts::TAU * j as f64 / k;
            out.push((d, 0.5 + 0.4 * a.cos(), 0.5 + 0.4 * a.sin()));
        }
        out
    }

    /// The document nearest to a click at `pos` inside `area`, if close enough.
    pub fn hit(
        &self,
        area: Rect,
        pos: Position,
        selected: Option<usize>,
        an: &Analysis,
    ) -> Option<usize> {
        let nodes = self.visible(area, selected, an);
        let (w, h) = (area.width.max(1) as f64, area.height.max(1) as f64);
        let (cx, cy) = (
            (pos.x.saturating_sub(area.x)) as f64 + 0.5,
            (pos.y.saturating_sub(area.y)) as f64 + 0.5,
        );
        nodes
            .iter()
            .map(|(d, x, y)| {
                let (nx, ny) = (x * w, (1.0 - y) * h);
                (*d, (nx - cx).powi(2) + ((ny - cy) * 2.0).powi(2))
            })
            .filter(|(_, d2)| *d2 <= 9.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(d, _)| d)
    }
}

/// Neighbours of a document over kept edges, ascending.
pub fn neighbours(an: &Analysis, doc: usize) -> Vec<usize> {
    let mut out: Vec<usize> = an
        .edges
        .iter()
        .filter_map(|e| {
            if e.a as usize == doc {
                Some(e.b as usize)
            } else if e.b as usize == doc {
                Some(e.a as usize)
            } else {
                None
            }
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Lays out each connected component on its own (force-directed) and packs the
/// components into a grid, largest first, so a small cluster is not squeezed to a
/// dot by the distance to the others; unlinked documents share the last cells.
fn component_layout(n: usize, edges: &[(usize, usize)]) -> Vec<(f64, f64)> {
    let mut comp: Vec<usize> = (0..n).collect();
    fn root(comp: &mut [usize], mut i: usize) -> usize {
        while comp[i] != i {
            comp[i] = comp[comp[i]];
            i = comp[i];
        }
        i
    }
    for &(a, b) in edges {
        let (ra, rb) = (root(&mut comp, a), root(&mut comp, b));
        if ra != rb {
            comp[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for i in 0..n {
        let r = root(&mut comp, i);
        groups.entry(r).or_default().push(i);
    }
    let (mut clusters, singles): (Vec<Vec<usize>>, Vec<Vec<usize>>) =
        groups.into_values().partition(|g| g.len() > 1);
    // Largest first; ties by corpus order of the first document.
    clusters.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
    let singles: Vec<usize> = singles.into_iter().flatten().collect();
    let mut cells: Vec<Vec<usize>> = clusters;
    for chunk in singles.chunks(6) {
        cells.push(chunk.to_vec());
    }
    let k = cells.len().max(1);
    let cols = (k as f64).sqrt().ceil() as usize;
    let rows = k.div_ceil(cols);
    let mut pos = vec![(0.5, 0.5); n];
    for (c, members) in cells.iter().enumerate() {
        let (cx, cy) = ((c % cols) as f64, (c / cols) as f64);
        let local: Vec<(usize, usize)> = edges
            .iter()
            .filter_map(|&(a, b)| {
                let ia = members.iter().position(|&m| m == a)?;
                let ib = members.iter().position(|&m| m == b)?;
                Some((ia, ib))
            })
            .collect();
        // Unlinked documents stand in a column; clusters get the force layout.
        let inner = if local.is_empty() {
            let k = members.len().max(1) as f64;
            (0..members.len())
                .map(|j| (0.5, if k > 1.0 { j as f64 / (k - 1.0) } else { 0.5 }))
                .collect()
        } else {
            force_layout(members.len(), local.into_iter())
        };
        for (j, &m) in members.iter().enumerate() {
            let (x, y) = inner[j];
            // Cells fill the square top to bottom; a margin keeps clusters apart.
            pos[m] = (
                (cx + 0.15 + 0.7 * x) / cols as f64,
                1.0 - (cy + 0.15 + 0.7 * y) / rows as f64,
            );
        }
    }
    pos
}

fn force_layout(n: usize, edges: impl Iterator<Item = (usize, usize)>) -> Vec<(f64, f64)> {
    if n == 0 {
        return Vec::new();
    }
    if n == 1 {
        return vec![(0.5, 0.5)];
    }
    let edges: Vec<(usize, usize)> = edges.collect();
    let mut pos: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / n as f64;
            (a.cos(), a.sin())
        })
        .collect();
    let k = (4.0 / n as f64).sqrt();
    let mut temp = 0.2;
    for _ in 0..150 {
        let mut disp = vec![(0.0f64, 0.0f64); n];
        for i in 0..n {
            for j in (i + 1)..n {
                let (dx, dy) = (pos[i].0 - pos[j].0, pos[i].1 - pos[j].1);
                let d = (dx * dx + dy * dy).sqrt().max(1e-4);
                let f = k * k / d;
                disp[i].0 += dx / d * f;
                disp[i].1 += dy / d * f;
                disp[j].0 -= dx / d * f;
                disp[j].1 -= dy / d * f;
            }
        }
        for &(a, b) in &edges {
            let (dx, dy) = (pos[a].0 - pos[b].0, pos[a].1 - pos[b].1);
            let d = (dx * dx + dy * dy).sqrt().max(1e-4);
            let f = d * d / k;
            disp[a].0 -= dx / d * f;
            disp[a].1 -= dy / d * f;
            disp[b].0 += dx / d * f;
            disp[b].1 += dy / d * f;
        }
        for i in 0..n {
            // Gravity keeps unlinked documents from drifting off.
            disp[i].0 -= pos[i].0 * 0.05;
            disp[i].1 -= pos[i].1 * 0.05;
            let d = (disp[i].0.powi(2) + disp[i].1.powi(2)).sqrt().max(1e-9);
            let step = d.min(temp);
            pos[i].0 += disp[i].0 / d * step;
            pos[i].1 += disp[i].1 / d * step;
        }
        temp *= 0.97;
    }
    let (mut minx, mut maxx, mut miny, mut maxy) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for (x, y) in &pos {
        minx = minx.min(*x);
        maxx = maxx.max(*x);
        miny = miny.min(*y);
        maxy = maxy.max(*y);
    }
    let (sx, sy) = ((maxx - minx).max(1e-9), (maxy - miny).max(1e-9));
    pos.iter()
        .map(|(x, y)| (0.05 + 0.9 * (x - minx) / sx, 0.05 + 0.9 * (y - miny) / sy))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dense_graph_falls_back_to_the_selected_documents_neighbourhood() {
        use crate::analysis::{AnalysisParams, Model};
        use crate::schema::Schema;
        // Pairs of documents share a rare member id: 30 documents, 15 kept edges.
        let docs: Vec<Vec<(String, &str, f64)>> = (0..30)
            .map(|i| {
                vec![
                    (format!("m{}", i / 2), "PATIENT_ID", 1.0),
                    (format!("n{}", i / 2), "NAME", 1.0),
                ]
            })
            .collect();
        let model = Model::from_lists(&docs, &Schema::default());
        let an = Analysis::new(
            &model,
            &AnalysisParams {
                edge_threshold: 0.5,
                chain_length: 2,
                ..AnalysisParams::default()
            },
        );
        assert_eq!(an.edges.len(), 15);
        let mut layout = GraphLayout::default();
        layout.update(&model, &an);
        let roomy = Rect::new(0, 0, 120, 40);
        assert_eq!(
            layout.visible(roomy, Some(4), &an).len(),
            30,
            "the whole graph fits"
        );
        let tiny = Rect::new(0, 0, 12, 6);
        let near: Vec<usize> = layout
            .visible(tiny, Some(4), &an)
            .iter()
            .map(|n| n.0)
            .collect();
        assert_eq!(
            near,
            vec![4, 5],
            "only the selected document and its neighbour"
        );
        let hit = layout.hit(tiny, Position::new(6, 3), Some(4), &an);
        assert_eq!(
            hit,
            Some(4),
            "a click on the centre picks the selected document"
        );
    }

    #[test]
    fn components_get_their_own_cells() {
        let edges = [(0, 3), (1, 2)];
        let a = component_layout(5, &edges);
        assert_eq!(a, component_layout(5, &edges));
        let d = |i: usize, j: usize| ((a[i].0 - a[j].0).powi(2) + (a[i].1 - a[j].1).powi(2)).sqrt();
        assert!(d(0, 3) < d(0, 1) && d(1, 2) < d(2, 3), "{a:?}");
    }

    #[test]
    fn the_layout_is_deterministic_and_pulls_linked_documents_together() {
        let edges = [(0, 1), (2, 3)];
        let a = force_layout(4, edges.iter().copied());
        let b = force_layout(4, edges.iter().copied());
        assert_eq!(a, b);
        let d = |i: usize, j: usize| ((a[i].0 - a[j].0).powi(2) + (a[i].1 - a[j].1).powi(2)).sqrt();
        assert!(d(0, 1) < d(0, 2) && d(2, 3) < d(1, 3), "{a:?}");
        assert!(
            a.iter()
                .all(|(x, y)| (0.0..=1.0).contains(x) && (0.0..=1.0).contains(y))
        );
    }
}
