# Family-wise adjusted p-values by R's stats::p.adjust (Holm 1979; Bonferroni), the reference of
# test/analyses/preregistration/verdicts.test.ts. Run: Rscript p_adjust.R  (writes p_adjust.json beside it)
sets <- list(c(0.01, 0.04, 0.03, 0.005), c(0.2, 0.2, 0.01), c(0.5), c(0.001, 0.9, 0.049, 0.012, 0.3), c(0.03, 0.03, 0.03))
fmt <- function(x) paste0("[", paste(sprintf("%.17g", x), collapse = ", "), "]")
rows <- sapply(sets, function(p) sprintf('{"p": %s, "holm": %s, "bonferroni": %s}', fmt(p), fmt(p.adjust(p, "holm")), fmt(p.adjust(p, "bonferroni"))))
writeLines(paste0("[\n", paste(rows, collapse = ",\n"), "\n]"), "p_adjust.json")
