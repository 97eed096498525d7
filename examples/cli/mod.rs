//! The command-line rules that every example follows. Each example has `mod cli;`.
//!
//! - `-h` or `--help` prints the usage on stdout and exits with 0.
//! - A bad argument prints one line on stderr and exits with 2. The line starts with
//!   `error: ` and names the argument and what is wrong with it.
//! - A flag given twice is refused.
//! - A closed stdout ends the program quietly, with exit code 2. An example piped into
//!   `head` does not panic.
//!
//! Not every example uses every helper.

#![allow(dead_code)]

use std::ffi::OsString;
use std::fmt::Display;
use std::process::ExitCode;
use std::str::FromStr;

/// What the command line asks for.
pub enum Command<T> {
    /// Print the usage and exit.
    Help,
    /// Run with these arguments.
    Run(T),
}

/// The arguments after the program's name, read one at a time.
pub struct Args {
    rest: std::vec::IntoIter<OsString>,
    /// The flags read so far, to refuse a repeated one.
    seen: Vec<String>,
}

impl Args {
    /// The arguments the program was started with, after its name.
    pub fn from_env() -> Args {
        let rest: Vec<OsString> = std::env::args_os().skip(1).collect();
        Args {
            rest: rest.into_iter(),
            seen: Vec::new(),
        }
    }

    /// The next argument, or `None` after the last one.
    ///
    /// A flag (an argument starting with `-`) that came before is an error. The help
    /// flags may repeat.
    pub fn next_arg(&mut self) -> Result<Option<String>, String> {
        let Some(arg) = self.rest.next() else {
            return Ok(None);
        };
        let arg = text(arg)?;
        if arg.starts_with('-') && !is_help(&arg) {
            if self.seen.contains(&arg) {
                return Err(format!("{arg} given twice"));
            }
            self.seen.push(arg.clone());
        }
        Ok(Some(arg))
    }

    /// The value that follows `flag`. A missing value is an error.
    pub fn value(&mut self, flag: &str) -> Result<String, String> {
        match self.rest.next() {
            Some(v) => text(v),
            None => Err(format!("{flag} needs a value")),
        }
    }

    /// The value that follows `flag`, read as a number.
    ///
    /// A missing value is an error. So is a value that does not read as a number of
    /// type `T`. The error says why, for example that the number is too large.
    pub fn number<T>(&mut self, flag: &str) -> Result<T, String>
    where
        T: FromStr,
        T::Err: Display,
    {
        parse_number(flag, &self.value(flag)?)
    }

    /// The value that follows `flag`, read as a thread count from 1 to [`MAX_THREADS`].
    pub fn threads(&mut self, flag: &str) -> Result<usize, String> {
        let n: usize = self.number(flag)?;
        if n == 0 {
            return Err(format!("{flag} must be at least 1"));
        }
        if n > MAX_THREADS {
            return Err(format!("{flag}: {n} is more than {MAX_THREADS}"));
        }
        Ok(n)
    }
}

/// `v`, the value of `what`, read as a number of type `T`.
///
/// The error names `what` and `v`, and says why `v` is not a number of that type.
pub fn parse_number<T>(what: &str, v: &str) -> Result<T, String>
where
    T: FromStr,
    T::Err: Display,
{
    v.parse()
        .map_err(|e| format!("{what}: '{v}' is not a valid number ({e})"))
}

/// An argument as text. Text that is not valid UTF-8 is an error.
fn text(arg: OsString) -> Result<String, String> {
    arg.into_string()
        .map_err(|a| format!("the argument '{}' is not valid UTF-8", a.to_string_lossy()))
}

/// Whether `arg` asks for the help: `-h` or `--help`.
pub fn is_help(arg: &str) -> bool {
    arg == "-h" || arg == "--help"
}

/// The most threads `--threads` accepts.
pub const MAX_THREADS: usize = 1024;

/// The error for an argument the example does not know.
pub fn unknown(arg: &str) -> String {
    format!("unknown argument '{arg}' (see --help)")
}

/// The error that stands for a closed stdout. `main` exits without a message on it.
const CLOSED: &str = "stdout is closed";

/// The error for a failed write to stdout.
///
/// A closed pipe becomes an error that `main` does not print. Any other failure is
/// named.
pub fn output_error(e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        CLOSED.into()
    } else {
        format!("writing the output: {e}")
    }
}

/// `println!` that returns an error instead of panicking when stdout fails.
///
/// The error is [`output_error`]'s. Use it with `?` in a function that returns
/// `Result<_, String>`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*).map_err($crate::cli::output_error)
    }};
}
// An example that writes its output another way leaves it unused.
#[allow(unused_imports)]
pub(crate) use outln;

/// Prints the usage or runs the example, then gives the exit code.
///
/// The help is `usage`, printed on stdout, with exit code 0. An error from `command`
/// or from `run` is printed on stderr as one line, with exit code 2.
pub fn main<T>(
    usage: &str,
    command: Result<Command<T>, String>,
    run: impl FnOnce(T) -> Result<(), String>,
) -> ExitCode {
    let result = command.and_then(|c| match c {
        Command::Help => outln!("{}", usage.trim_end()),
        Command::Run(args) => run(args),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if e != CLOSED {
                // One line, whatever the message holds. A failed write to stderr has
                // nowhere left to be reported.
                use std::io::Write as _;
                let _ = writeln!(std::io::stderr(), "error: {}", e.replace('\n', " "));
            }
            ExitCode::from(2)
        }
    }
}
