# Reference values for REML fits whose likelihood is not concave near τ² = 0: one cell's sampling
# variance far below the others' (1e-12 and 1e-18) and its effect away from theirs. Fisher scoring
# overshoots there and cycles: metafor's rma stops with "Fisher scoring algorithm did not converge"
# on some of these tables (recorded as "error"), and with step halving (stepadj = 0.5) or its
# default threshold it stops short of the maximum. The reference is therefore the maximum of the
# restricted log-likelihood itself,
#   ℓ(τ²) = −½ [Σ log(vᵢ + τ²) + log Σwᵢ + Σ wᵢ (yᵢ − μ̂)²],  wᵢ = 1/(vᵢ + τ²),
# found as the root of its derivative ½[Σ wᵢ² (yᵢ − μ̂)² − (Σwᵢ − Σwᵢ²/Σwᵢ)] (uniroot) between the
# neighbours of the best point of a fine scan of ℓ (the scan shows one maximum, inside (0, 0.1)),
# with metafor's rma at that τ² (tau2 = fixed) for the estimate, SE and interval; metafor's own
# logLik(REML) is ℓ less the constant (k − 1)/2·log 2π − ½ log k (checked). Run from the repository root:
#
#   Rscript test/reference/meta/make-reference-tiny-reml.R
#
# It writes test/reference/meta/reference-tiny-reml.json; npm test reads only that file, never R.
suppressMessages(library(metafor))
num <- function(x) sprintf("%.17g", x)
cases <- list(
  list(name = "seven", y = c(0, 0.0298, 0, 0, 0, 0, 0), v = c(0.001, NA, 0.001, 0.001, 0.001, 0.0049, 0.0055)),
  list(name = "six", y = c(0, 0, 0, 0, -0.027765512514396063, 0), v = c(0.001, 0.001, 0.001, 0.001, NA, 0.001)),
  list(name = "eight", y = c(0, 0, 0, 0, 0, 0, 0.03139287889439311, 0),
       v = c(0.001, 0.001, 0.001, 0.001, 0.001, 0.001, NA, 0.015382904518364453))
)
fit_or <- function(...) tryCatch(suppressWarnings(rma(...)), error = function(e) NULL)
show <- function(f) if (is.null(f)) '"error"' else sprintf('{"estimate": %s, "tau2": %s}', num(f$b[1]), num(f$tau2))
out <- c()
for (cs in cases) for (tiny in c(1e-12, 1e-18)) {
  v <- cs$v; v[is.na(v)] <- tiny; y <- cs$y
  ll <- function(t2) {
    w <- 1 / (v + t2); mu <- sum(w * y) / sum(w)
    -0.5 * (sum(log(v + t2)) + log(sum(w)) + sum(w * (y - mu)^2))
  }
  grid <- c(0, 10^seq(-10, -1, by = 0.01))
  vals <- vapply(grid, ll, 0)
  b <- which.max(vals)
  stopifnot(b > 1, b < length(grid), all(diff(sign(diff(vals))) <= 0 | abs(diff(vals))[-1] < 1e-12))
  score <- function(t2) { w <- 1 / (v + t2); S <- sum(w); mu <- sum(w * y) / S; sum(w^2 * (y - mu)^2) - (S - sum(w^2) / S) }
  root <- uniroot(score, c(grid[b - 1], grid[b + 1]), tol = 1e-18)$root
  opt <- list(maximum = root, objective = ll(root))
  at <- rma(y, v, tau2 = opt$maximum, test = "adhoc")
  reml <- fit_or(y, v, method = "REML", control = list(tau2.init = opt$maximum, threshold = 1e-10, maxiter = 10000))
  k <- length(y)
  stopifnot(abs(logLik(at, REML = TRUE) - (opt$objective - (k - 1) / 2 * log(2 * pi) + 0.5 * log(k))) < 1e-9)
  default <- fit_or(y, v, method = "REML", test = "adhoc")
  stepadj <- fit_or(y, v, method = "REML", test = "adhoc", control = list(stepadj = 0.5, threshold = 1e-12, maxiter = 10000))
  out <- c(out, sprintf(paste0('"%s@%s": {"y": [%s], "v": [%s], "tau2": %s, "estimate": %s, "se": %s, "ci_lo": %s, "ci_hi": %s, "Q": %s,',
    ' "loglik": %s, "loglik_metafor": %s, "loglik_at_0": %s, "reml_from_max": %s, "metafor_default": %s, "metafor_stepadj": %s}'),
    cs$name, num(tiny), paste(num(y), collapse = ", "), paste(num(v), collapse = ", "), num(opt$maximum), num(at$b[1]), num(at$se),
    num(at$ci.lb), num(at$ci.ub), num(at$QE), num(opt$objective), num(logLik(at, REML = TRUE)), num(ll(0)), show(reml), show(default), show(stepadj)))
}
writeLines(c("{", paste0("  ", paste(out, collapse = ",\n  ")), "}"), "test/reference/meta/reference-tiny-reml.json")
