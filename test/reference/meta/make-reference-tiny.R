# Reference values for effect tables in which one or two cells have a sampling variance far below
# the others' (1e-12 to 1e-40 beside 0.01): metafor's rma (REML, test = "adhoc", and DL) fits them,
# warning that the ratio of variances is extremely large. Run from the repository root:
#
#   Rscript test/reference/meta/make-reference-tiny.R
#
# Below about 1e-16 of the others, metafor's own sums lose the tiny cells (its Q and its DL τ² are
# then off: Q 5.47 where Σwᵢrᵢ² is 8.29), so each table is also fitted with its tiny variances
# raised to 1e-12 in their ratios ("<name>/<method>@1e-12"), where metafor's sums are still exact;
# the fits are continuous in the variances, so those are the values to 1e-6 in the limit.
# It writes test/reference/meta/reference-tiny.json; npm test reads only that file, never R.
suppressMessages(library(metafor))
ctrl <- list(threshold = 1e-12, maxiter = 10000, tol = 1e-12)
num <- function(x) sprintf("%.15g", x)
y <- c(0.1, 0.25, 0.3, 0.15, 0.22, 0.05, 0.41, -0.02)
base <- c(0.02, 0.01, 0.03, 0.02, 0.01, 0.015, 0.04, 0.025)
cases <- list(
  list(name = "one-1e-12", v = replace(base, 1, 1e-12)),
  list(name = "one-1e-20", v = replace(base, 1, 1e-20)),
  list(name = "one-1e-30", v = replace(base, 1, 1e-30)),
  list(name = "one-1e-40", v = replace(base, 3, 1e-40)),
  list(name = "two-1e-30", v = replace(base, c(2, 5), c(1e-30, 3e-30)))
)
out <- c()
raised <- function(v) { tiny <- v < 1e-6; v[tiny] <- v[tiny] * (1e-12 / min(v[tiny])); v }
for (cs in cases) {
  for (method in c("REML", "DL")) for (at in c("", "@1e-12")) {
    f <- suppressWarnings(rma(y, if (at == "") cs$v else raised(cs$v), method = method, test = "adhoc", control = ctrl))
    out <- c(out, sprintf('"%s/%s%s": {"estimate": %s, "se": %s, "ci_lo": %s, "ci_hi": %s, "tau2": %s, "Q": %s}',
      cs$name, method, at, num(f$b[1]), num(f$se), num(f$ci.lb), num(f$ci.ub), num(f$tau2), num(f$QE)))
  }
}
cases_json <- paste0('"', vapply(cases, function(cs) cs$name, ""), '": [', vapply(cases, function(cs) paste(num(cs$v), collapse = ", "), ""), "]", collapse = ", ")
writeLines(c("{", sprintf('  "y": [%s],', paste(num(y), collapse = ", ")), sprintf('  "v": {%s},', cases_json),
  sprintf('  "fits": {%s}', paste(out, collapse = ",\n    ")), "}"), "test/reference/meta/reference-tiny.json")
