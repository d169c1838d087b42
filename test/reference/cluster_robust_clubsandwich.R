# Reference values for src/stats/cluster-robust.ts from R's clubSandwich (Pustejovsky & Tipton 2018):
# the CR2 variance and Satterthwaite degrees of freedom of a linear contrast of the cell means, for
# the same cases as cluster_robust.py (read from cluster_robust.json: per column, each match's
# number of decisions and cooperations). The data are the 0/1 decisions, the model the cell-means
# OLS regression y ~ 0 + column, the clusters the matches (a column's group and match index).
# Run from the repository root (R with clubSandwich and jsonlite, e.g. Debian's r-cran-clubsandwich
# and r-cran-jsonlite):
#   Rscript test/reference/cluster_robust_clubsandwich.R > test/reference/cluster_robust_clubsandwich.json
suppressMessages({ library(clubSandwich); library(jsonlite) })
ref <- fromJSON("test/reference/cluster_robust.json", simplifyVector = FALSE)

one_case <- function(c) {
  rows <- list()
  for (k in seq_along(c$columns)) {
    col <- c$columns[[k]]
    for (j in seq_along(col$sizes)) {
      n <- col$sizes[[j]]; s <- col$sums[[j]]
      rows[[length(rows) + 1]] <- data.frame(
        y = c(rep(1, s), rep(0, n - s)),
        column = factor(k - 1, levels = seq_along(c$columns) - 1),
        cluster = paste(c$groups[[k]], j - 1))
    }
  }
  d <- do.call(rbind, rows)
  # one column: the intercept is its mean (a factor of one level has no contrasts)
  fit <- if (length(c$columns) == 1) lm(y ~ 1, data = d) else lm(y ~ 0 + column, data = d)
  contrast <- matrix(unlist(c$coef), nrow = 1)
  lc <- linear_contrast(fit, vcov = "CR2", cluster = d$cluster, contrasts = contrast, test = "Satterthwaite")
  list(name = c$name, estimate = lc$Est, variance = lc$SE^2, df = lc$df)
}

out <- list(
  source = paste("clubSandwich", as.character(packageVersion("clubSandwich")), "linear_contrast(vcov = 'CR2', test = 'Satterthwaite')"),
  cases = lapply(ref$cases, one_case))
cat(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), "\n")
