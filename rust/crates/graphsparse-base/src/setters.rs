/// Writes the chainable `const` setters of a parameter builder, the first step of the house
/// pattern `Params` → [`Check::check`](crate::Check) → `ValidParams` → solver.
///
/// Each entry is `name: Type => field.path`, with its own doc comment; the setter stores its
/// argument in that field (a path reaches into nested fields such as `budget.max_nodes`) and
/// returns the builder. Setters that do more than store a value are written by hand.
///
/// # Example
/// ```
/// use graphsparse_base::{setters, Budget};
///
/// #[derive(Debug, Clone, Copy)]
/// pub struct Params {
///     tol: f64,
///     budget: Budget,
/// }
///
/// impl Params {
///     setters! {
///         /// Stopping tolerance.
///         tol: f64 => tol,
///         /// Node budget.
///         max_nodes: Option<u64> => budget.max_nodes,
///     }
/// }
///
/// let p = Params { tol: 1.0, budget: Budget::UNLIMITED }.tol(1e-6).max_nodes(Some(10));
/// assert_eq!(p.tol, 1e-6);
/// assert_eq!(p.budget.max_nodes, Some(10));
/// ```
#[macro_export]
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident: $ty:ty => $($field:ident).+),* $(,)?) => {
        $(
            $(#[$doc])*
            pub const fn $name(mut self, v: $ty) -> Self {
                self.$($field).+ = v;
                self
            }
        )*
    };
}
