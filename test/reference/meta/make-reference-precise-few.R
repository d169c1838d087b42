# Reference values for meta-regressions with a few very precise studies (variances 1e-7..5e-6 among
# 0.01..0.2: weights ~1e5..1e6 times the typical one, not extreme): metafor's rma with tight control
# (threshold 1e-13, tol 1e-14; the defaults stop at 1e-5). There X'WX is well enough conditioned that
# metafor's normal-equation fit is exact to 1e-10, so its numbers are the reference. Run from the repository root:
#
#   Rscript test/reference/meta/make-reference-precise-few.R
#
# It writes test/reference/meta/reference-precise-few.json; npm test reads only that file, never R.
suppressMessages(library(metafor))
num <- function(x) sprintf("%.17g", x)
one <- function(file, method) {
  d <- read.csv(file.path("test/reference/meta/tables", file))
  ctl <- list(threshold = 1e-13, tol = 1e-14, maxiter = 10000, stepadj = 0.5)
  r <- rma(d$yi, d$vi, mods = ~ x1, data = d, method = method, test = "z", control = ctl)
  sprintf('"%s/%s": {"b": [%s], "se": [%s], "tau2": %s, "QE": %s, "QM": %s}', file, method,
    paste(num(c(r$beta)), collapse = ", "), paste(num(r$se), collapse = ", "), num(r$tau2), num(r$QE), num(r$QM))
}
out <- c(one("case_egger5_190.csv", "REML"), one("case_egger5_94.csv", "PM"), one("case_egger5_94.csv", "REML"), one("case_egger5_132.csv", "ML"))
writeLines(c("{", paste(out, collapse = ",\n"), "}"), "test/reference/meta/reference-precise-few.json")
