//! The parameters' command-line flags, built from the parameter table.

use super::*;

/// The parameters' command-line flags (`--edge-threshold X` …), built from
/// [`PARAMS`]: every row with `flag` set; a switch is a pair (`--prune` /
/// `--no-prune`, the last one given wins). What was given becomes a configuration
/// layer, the highest one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParamFlags {
    pub layer: ConfigLayer,
}

impl clap::FromArgMatches for ParamFlags {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = ParamFlags::default();
        flags.update_from_arg_matches(m)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        for def in PARAMS.iter().filter(|d| d.flag) {
            if def.kind == Kind::Switch {
                let on = m.try_get_one::<bool>(def.name).ok().flatten() == Some(&true);
                let off = m.try_get_one::<bool>(&off_id(def.name)).ok().flatten() == Some(&true);
                if on || off {
                    def.set_layer(&mut self.layer, Value::Switch(on))
                        .map_err(|message| {
                            clap::Error::raw(clap::error::ErrorKind::ValueValidation, message)
                        })?;
                }
                continue;
            }
            let Some(text) = m.get_one::<String>(def.name) else {
                continue;
            };
            let invalid = |message: String| {
                clap::Error::raw(
                    clap::error::ErrorKind::ValueValidation,
                    format!(
                        "invalid value '{text}' for '--{}': {message}\n",
                        def.name.replace('_', "-")
                    ),
                )
            };
            let v = def
                .param
                .parse_value(text)
                .map_err(|e| invalid(e.to_string()))?;
            def.set_layer(&mut self.layer, v).map_err(invalid)?;
        }
        Ok(())
    }
}

impl clap::Args for ParamFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        PARAMS.iter().filter(|d| d.flag).fold(cmd, |cmd, def| {
            if def.kind == Kind::Switch {
                let flag = def.name.replace('_', "-");
                let off = off_id(def.name);
                return cmd
                    .arg(
                        clap::Arg::new(def.name)
                            .long(flag.clone())
                            .help(def.help)
                            .action(clap::ArgAction::SetTrue)
                            .overrides_with(off.clone()),
                    )
                    .arg(
                        clap::Arg::new(off.clone())
                            .long(format!("no-{flag}"))
                            .help(format!("Turn --{flag} off"))
                            .action(clap::ArgAction::SetTrue)
                            .overrides_with(def.name),
                    );
            }
            let mut arg = clap::Arg::new(def.name)
                .long(def.name.replace('_', "-"))
                .value_name(def.value_name)
                .help(def.help)
                .action(clap::ArgAction::Set);
            if let Kind::Choice(words) = def.kind {
                arg = arg.value_parser(clap::builder::PossibleValuesParser::new(words.iter()));
            }
            cmd.arg(arg)
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// The id of a switch's `--no-NAME` flag.
fn off_id(name: &str) -> String {
    format!("no_{name}")
}
