//! One policy for when a computation may use rayon.

/// Work smaller than this (in values, or whatever unit the caller counts) stays on the calling
/// thread under [`Parallel::Auto`].
pub const PARALLEL_MIN_ELEMENTS: usize = 1 << 15;

/// When a computation may spread its work over the current rayon pool.
///
/// Every crate takes this one type; none builds a pool: parallel work runs on whichever pool the
/// caller `install`ed (or rayon's global pool for a plain Rust caller). Results never depend on
/// the choice: every parallel path computes the same values in the same order as the serial one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Parallel {
    /// Never: everything runs on the calling thread; rayon is not touched.
    Serial,
    /// In parallel when there is more than one task and at least [`PARALLEL_MIN_ELEMENTS`]
    /// units of work (searches whose work is unknown up front run in parallel).
    #[default]
    Auto,
    /// In parallel when there is more than one task and at least this much work
    /// (`Threshold(0)` forces the parallel path, which tests use on tiny inputs).
    Threshold(usize),
}

impl Parallel {
    /// Whether `n_tasks` tasks holding `work` units in all run on rayon.
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::Parallel;
    /// assert!(!Parallel::Auto.use_rayon(4, 100));
    /// assert!(Parallel::Threshold(0).use_rayon(4, 100));
    /// assert!(!Parallel::Threshold(0).use_rayon(1, 100)); // one task: nothing to split
    /// ```
    #[inline]
    pub fn use_rayon(self, n_tasks: usize, work: usize) -> bool {
        n_tasks > 1
            && match self {
                Parallel::Serial => false,
                Parallel::Auto => work >= PARALLEL_MIN_ELEMENTS,
                Parallel::Threshold(t) => work >= t,
            }
    }

    /// Whether anything may run on rayon: for searches (mining, lattice walks) whose work is
    /// not known before they start, every policy but [`Parallel::Serial`] says yes.
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::Parallel;
    /// assert!(Parallel::Auto.enabled());
    /// assert!(!Parallel::Serial.enabled());
    /// ```
    #[inline]
    pub const fn enabled(self) -> bool {
        !matches!(self, Parallel::Serial)
    }
}

impl From<bool> for Parallel {
    /// `true` is [`Parallel::Auto`], `false` is [`Parallel::Serial`].
    fn from(parallel: bool) -> Self {
        if parallel {
            Parallel::Auto
        } else {
            Parallel::Serial
        }
    }
}
