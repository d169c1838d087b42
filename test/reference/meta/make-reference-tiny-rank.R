# Reference values for Begg's rank correlation test (metafor's ranktest) when one cell's sampling
# variance is far below the others' (1e-12 to 1e-30 beside 0.01). ranktest standardizes
# (yᵢ − θ̂)/√(vᵢ − vb), vb = 1/Σwᵢ the fixed-effect variance: for the tiny cell vᵢ − vb cancels, to
# noise at 1e-16 and to 0 below (its standardized effect is then NaN and cor.test drops the cell).
# In exact arithmetic vᵢ − vb = vᵢ·Oᵢ/S (Oᵢ = Σ_{j≠i} wⱼ, S = Σw) and yᵢ − θ̂ = −Σ_{j≠i} wⱼ(yⱼ − yᵢ)/S,
# so the tiny cell's standardized effect tends to −Σ_{j≠i} wⱼ(yⱼ − yᵢ)/√Oᵢ, computed here from those
# positive sums ("limit"); the ranks at 1e-12 are the limit's (checked), so metafor's ranktest at
# 1e-12 is the value for every smaller variance. Run from the repository root:
#
#   Rscript test/reference/meta/make-reference-tiny-rank.R
#
# It writes test/reference/meta/reference-tiny-rank.json; npm test reads only that file, never R.
suppressMessages(library(metafor))
num <- function(x) sprintf("%.17g", x)
y <- c(0.1, 0.25, 0.3, 0.15, 0.22, 0.05, 0.41, -0.02)
base <- c(0.02, 0.01, 0.03, 0.02, 0.01, 0.015, 0.04, 0.025)
star <- function(v) { res <- rma(y, v, method = "FE"); (y - c(res$beta)) / sqrt(v - c(res$vb)) }
out <- c()
for (pos in c(1, 3, 8)) {
  w <- 1 / base[-pos]
  limit <- -sum(w * (y[-pos] - y[pos])) / sqrt(sum(w))
  at12 <- suppressWarnings(star(replace(base, pos, 1e-12)))
  stopifnot(identical(rank(replace(at12, pos, limit)), rank(at12)))
  ref <- suppressWarnings(ranktest(y, replace(base, pos, 1e-12)))
  for (tiny in c(1e-12, 1e-20, 1e-30)) {
    v <- replace(base, pos, tiny)
    direct <- suppressWarnings(ranktest(y, v))
    out <- c(out, sprintf('{"v": [%s], "tau": %s, "p": %s, "limit_star": %s, "metafor_direct": {"tau": %s, "p": %s}}',
      paste(num(v), collapse = ", "), num(ref$tau), num(ref$pval), num(limit), num(direct$tau), num(direct$pval)))
  }
}
writeLines(c("{", sprintf('  "y": [%s],', paste(num(y), collapse = ", ")), '  "cases": [', paste0("    ", paste(out, collapse = ",\n    ")), "  ]", "}"),
  "test/reference/meta/reference-tiny-rank.json")
