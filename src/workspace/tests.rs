//! Tests of the workspace.
use super::*;
use crate::corpus::Document;
use crate::entity::ExtractedItem;

fn item(v: &str, t: &str) -> ExtractedItem {
    ExtractedItem {
        original: v.into(),
        normalized: String::new(),
        entity_type: t.into(),
        relevance: 0.9,
        spans: vec![],
    }
}

/// The extracted items of document `i` of [`workspace`]'s corpus.
fn items_of(i: usize) -> Vec<ExtractedItem> {
    let mut items = vec![item("Cedar Clinic", "PROVIDER")];
    if i < 2 {
        items.push(item("MBR-1001", "PATIENT_ID"));
        items.push(item("lupus nephritis", "MEDICAL_CONDITION"));
    }
    items
}

fn workspace() -> Workspace {
    let (corpus, config, store) = parts();
    Workspace::new(corpus, config, store, None, "test").expect("workspace")
}

/// The corpus, configuration and entities of [`workspace`].
fn parts() -> (Corpus, Config, EntityStore) {
    let docs = vec![
        Document::new(
            "a",
            "Member MBR-1001 has lupus nephritis, seen at Cedar Clinic.",
        ),
        Document::new("b", "MBR-1001: lupus nephritis follow-up at Cedar Clinic."),
        Document::new("c", "Unrelated note about Cedar Clinic."),
    ];
    let mut config = Config::default();
    config.redact.always_mask = vec![];
    let mut store = EntityStore::with_documents(&docs);
    for (i, d) in docs.iter().enumerate() {
        store.set_document_items(
            i,
            d,
            &items_of(i),
            &config.schema,
            config.extraction.date_order,
        );
    }
    let corpus = Corpus {
        root: std::path::PathBuf::from("/nonexistent-corpus"),
        documents: docs,
        ..Corpus::default()
    };
    (corpus, config, store)
}

/// Every file of an export folder, by path relative to it, with its bytes.
fn files_of(dir: &std::path::Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .expect("inside")
                    .display()
                    .to_string();
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    out
}

#[test]
fn an_export_only_workspace_exports_what_the_full_workspace_exports() {
    use crate::export::{ExportOptions, export};
    let scanner = crate::extract::offline::OfflineExtractor::new(Default::default());
    let dir = tempfile::tempdir().expect("tempdir");
    let mut exported = Vec::new();
    for export_only in [false, true] {
        let (corpus, mut config, store) = parts();
        config.redact.always_mask = vec!["PATIENT_ID".into()];
        let out = dir.path().join(format!("out-{export_only}"));
        let summary = if export_only {
            let ws =
                Workspace::new_for_export(corpus, config, store, None, "test").expect("workspace");
            // What only review needs is gone; what the export reads is not.
            assert!(ws.store().docs.iter().all(|d| d.entities.is_empty()));
            assert!(!ws.analysis().edges.is_empty());
            assert_eq!(ws.globals().len(), 3);
            export(&*ws, b"key", &out, &ExportOptions::default(), &scanner)
        } else {
            let ws = Workspace::new(corpus, config, store, None, "test").expect("workspace");
            export(&ws, b"key", &out, &ExportOptions::default(), &scanner)
        }
        .expect("export");
        assert_eq!(summary.masked, 1);
        exported.push(files_of(&out));
    }
    assert!(exported[0].len() >= 5, "{:?}", exported[0].keys());
    assert_eq!(exported[0], exported[1]);
}

#[test]
fn every_decision_leaves_the_plan_a_full_re_plan_would_make() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut ws = workspace();
    ws.session = Some(Session::open(&dir.path().join("s.sqlite")).expect("session"));
    let id = |ws: &Workspace, i: usize| ws.model.entities[i].id.clone();
    let decision = |action: AuditAction| Decision {
        actor: "t".into(),
        action,
        reason: Some("r".into()),
        state_before: None,
        state_after: None,
        config_hash: String::new(),
    };
    let masked = (0..ws.model.entities.len())
        .find(|&i| ws.plan.masked[i])
        .expect("a masked entity");
    let steps = [
        AuditAction::Accept {
            entity: id(&ws, masked),
            mask: true,
        },
        AuditAction::Override {
            entity: id(&ws, masked),
            mask: false,
        },
        AuditAction::Accept {
            entity: id(&ws, 0),
            mask: ws.plan.masked[0],
        },
        AuditAction::AcceptResidual {
            documents: vec!["a".into()],
        },
        AuditAction::Unpin {
            entity: id(&ws, masked),
        },
        AuditAction::Pin {
            entity: id(&ws, 1),
            mask: true,
        },
    ];
    for step in steps {
        ws.apply(decision(step.clone())).expect("apply");
        let kept = ws.plan.clone();
        ws.replan().expect("replan");
        assert_eq!(ws.plan, kept, "after {step:?}");
        match step {
            AuditAction::Override { .. } => {
                assert!(!ws.plan.masked[masked], "override in force")
            }
            AuditAction::Unpin { .. } => {
                assert!(ws.plan.masked[masked], "the proposal is back")
            }
            AuditAction::Pin { .. } => assert!(ws.plan.masked[1], "the pin holds"),
            _ => {}
        }
    }
}

#[test]
fn undoing_an_entity_edit_brings_the_entity_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let docs = workspace().corpus.documents;
    let corpus = Corpus {
        documents: docs,
        ..Corpus::default()
    };
    let session = Session::open(&dir.path().join("s.sqlite")).expect("session");
    let mut ws = Workspace::pending(corpus, Config::default(), Some(session), "test").expect("ws");
    ws.set_extracted((0..3).map(|i| (i, items_of(i))))
        .expect("extracted");
    let (entities, plan) = (ws.model.entities.clone(), ws.plan.clone());
    let id = crate::entity::entity_id("MBR1001", "PATIENT_ID");
    let decide = |ws: &mut Workspace, action: AuditAction| {
        ws.apply(Decision {
            actor: "t".into(),
            action,
            reason: None,
            state_before: None,
            state_after: None,
            config_hash: String::new(),
        })
        .expect("apply")
    };
    let seq = decide(
        &mut ws,
        AuditAction::RemoveEntity {
            entity: id.clone(),
            doc: None,
        },
    );
    assert!(ws.model.entity_index(&id).is_none());
    decide(&mut ws, AuditAction::Undo { seq });
    assert_eq!(ws.model.entities, entities, "the entity is back");
    assert_eq!(ws.plan, plan);
}

#[test]
fn the_linker_pass_runs_when_enabled() {
    struct Nothing;
    impl Extractor for Nothing {
        fn name(&self) -> &str {
            "nothing"
        }
        fn extract(
            &self,
            _: &crate::corpus::Document,
        ) -> Result<Vec<ExtractedItem>, crate::extract::ExtractError> {
            Ok(Vec::new())
        }
    }
    let corpus = Corpus {
        documents: vec![
            Document::new("a", "A novel bone-grafting technique was used."),
            Document::new("b", "The bone-grafting technique again."),
        ],
        ..Corpus::default()
    };
    let mut config = Config::default();
    let off = extract_all(&corpus, &config, &Nothing);
    assert!(off.globals().is_empty());
    config = crate::config::ConfigLayer::from_toml("linker = true", "test")
        .and_then(|layer| {
            let mut c = config.clone();
            layer.apply(&mut c, "test").map(|_| c)
        })
        .expect("config");
    let on = extract_all(&corpus, &config, &Nothing);
    let values: Vec<String> = on
        .globals()
        .values()
        .map(|g| g.normalized.clone())
        .collect();
    assert_eq!(values, vec!["bone-grafting technique".to_string()]);
}

#[test]
fn adopted_settings_persist_in_the_session_and_undo_restores_the_base() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.sqlite");
    let settings = |old: &str, new: &str| Decision {
        actor: "t".into(),
        action: AuditAction::Settings {
            old: BTreeMap::from([("edge_threshold".to_string(), old.to_string())]),
            new: BTreeMap::from([("edge_threshold".to_string(), new.to_string())]),
        },
        reason: None,
        state_before: None,
        state_after: None,
        config_hash: "h".into(),
    };
    let seq;
    {
        let mut ws = workspace();
        ws.session = Some(Session::open(&path).expect("session"));
        assert_eq!(ws.analysis.edges.len(), 1);
        seq = ws.apply(settings("0.5", "1")).expect("adopt");
        assert_eq!(ws.config.analysis.edge_threshold, 1.0);
        assert!(ws.analysis.edges.is_empty(), "re-analysed");
    }
    let reopened = |ws: Workspace| {
        let Workspace {
            corpus,
            base_config,
            store,
            ..
        } = ws;
        let session = Session::open(&path).expect("session");
        Workspace::new(corpus, base_config, store, Some(session), "test").expect("ws")
    };
    let mut ws = reopened(workspace());
    assert_eq!(
        ws.config.analysis.edge_threshold, 1.0,
        "restored on reopening"
    );
    assert_eq!(ws.base_config.analysis.edge_threshold, 0.5);
    assert!(ws.analysis.edges.is_empty());
    let undo = Decision {
        action: AuditAction::Undo { seq },
        ..settings("", "")
    };
    ws.apply(undo).expect("undo");
    assert_eq!(ws.config.analysis.edge_threshold, 0.5, "back to the base");
    assert_eq!(ws.analysis.edges.len(), 1);
}

#[test]
fn a_planner_threshold_change_keeps_the_analysis_and_replans() {
    let mut ws = workspace();
    assert_eq!(ws.analysis.edges.len(), 1);
    let before = ws.plan.masked_count();
    let mut strict = ws.config.clone();
    strict.plan.theta_chain = 0.0;
    strict.plan.rho_high = 0.0;
    strict.plan.rho_medium = 0.0;
    let edges_ptr = ws.analysis.edges.as_ptr();
    ws.set_config(strict).expect("set config");
    assert_eq!(ws.analysis.edges.as_ptr(), edges_ptr, "analysis reused");
    assert!(ws.plan.masked_count() > before);
    let mut pruned = ws.config.clone();
    pruned.analysis.edge_threshold = 1.0;
    ws.set_config(pruned).expect("set config");
    assert!(
        ws.analysis.edges.is_empty(),
        "re-analysed with the new threshold"
    );
}
