# Reference values for REML/ML fits whose likelihood has an interior local maximum below its value at
# tau2 = 0: metafor (threshold 1e-13, tol 1e-14) compares the log-likelihood at 0 with that at the
# iteration's end, warns, and sets tau2 = 0. The log-likelihoods at both points are written too (by
# their definitions: -1/2 sum log(v + t) - 1/2 Q(t), REML adding -1/2 log det X'WX), so the test can
# check that 0 is the higher. Run from the repository root:
#
#   Rscript test/reference/meta/make-reference-boundary.R
#
# It writes test/reference/meta/reference-boundary.json; npm test reads only that file, never R.
suppressMessages(library(metafor))
num <- function(x) sprintf("%.17g", x)
ll <- function(t2, y, v, X, reml) { w <- 1 / (v + t2); A <- crossprod(X * w, X); b <- solve(A, crossprod(X * w, y)); r <- y - X %*% b
  -0.5 * sum(log(v + t2)) - 0.5 * sum(w * r^2) - if (reml) 0.5 * as.numeric(determinant(A)$modulus) else 0 }
one <- function(file, method, mods, interior) {
  d <- read.csv(file.path("test/reference/meta/tables", file))
  ctl <- list(threshold = 1e-13, tol = 1e-14, maxiter = 10000)
  f <- if (length(mods)) reformulate(mods) else NULL
  r <- withCallingHandlers(if (is.null(f)) rma(d$yi, d$vi, method = method, test = "z", control = ctl)
    else rma(d$yi, d$vi, mods = f, data = d, method = method, test = "z", control = ctl), warning = function(w) invokeRestart("muffleWarning"))
  X <- cbind(1, as.matrix(d[, mods, drop = FALSE]))
  stopifnot(ll(0, d$yi, d$vi, X, method == "REML") > ll(interior, d$yi, d$vi, X, method == "REML"))
  sprintf('"%s/%s": {"mods": [%s], "b": [%s], "se": [%s], "tau2": %s, "QE": %s, "ll0": %s, "ll_interior": %s, "interior": %s}', file, method,
    if (length(mods)) paste0('"', mods, '"', collapse = ", ") else "", paste(num(c(r$beta)), collapse = ", "), paste(num(r$se), collapse = ", "), num(r$tau2), num(r$QE),
    num(ll(0, d$yi, d$vi, X, method == "REML")), num(ll(interior, d$yi, d$vi, X, method == "REML")), num(interior))
}
# interior: the stationary point Fisher scoring reached before the comparison (its log-likelihood is below that at 0).
out <- c(one("case_wide3_84.csv", "ML", character(0), 0.006345974875657263), one("case_wide1_173.csv", "REML", c("x1", "x2"), 6.400768869350091e-05))
writeLines(c("{", paste(out, collapse = ",\n"), "}"), "test/reference/meta/reference-boundary.json")
