# Reference values for samegame's heterogeneity intervals, influence diagnostics, small-study tests
# and three-level meta-regression (src/stats/meta/), computed by R's metafor (Viechtbauer 2010).
# Run from the repository root:
#
#   Rscript test/reference/meta/make-reference-synthesis.R
#
# It writes the effect tables it uses (test/reference/meta/held-out/*.csv; none of them is used to
# build or tune the code) and test/reference/meta/reference-synthesis.json. npm test never runs R.
#
# Tables:
#   egger2001  metafor's dat.egger2001 (package metadat): 16 trials of intravenous magnesium after
#              acute myocardial infarction, as published in Egger, Davey Smith & Altman (eds., 2001),
#              "Systematic Reviews in Health Care", BMJ Books (ch. 11, Sterne, Egger & Davey Smith),
#              from Teo et al. 1991, Horner 1992, LIMIT-2 (Woods et al. 1992) and ISIS-4 (1995).
#              Published data; exported here with its log odds ratios (escalc "OR") and ni = n1i + n2i.
#              metafor and metadat are GPL; only the published numbers are copied, no code.
#   asym20     k = 20 simulated effects whose small studies lean positive (a left-side funnel gap),
#              the last one set to 1.6 (an outlier influence() flags)
#   shipped    tables/shipped.csv (the shipped source's 12 shifts, make-reference.R); its ni are all 600, so no ni predictors
#   spread, ml3, ml4, ml6   held-out tables of make-reference-intervals.R
#   konstantopoulos         tables/konstantopoulos.csv (make-reference.R): 56 schools in 11 districts
#   mlreg      a three-level table of 8 studies (2 to 5 cells) with a study-level numeric
#              moderator dose and a cell-level two-level moderator arm
# Calls: confint(rma.mv) (profile likelihood), influence(rma), leave1out(rma), regtest(rma,
# predictor = sei, vi, ni, ninv, sqrtni, sqrtninv), ranktest(rma), trimfill(rma, estimator = L0, R0),
# lm(yi ~ sei | vi, weights = 1/vi) for PET and PEESE, rma.mv(mods = ...) with test "t" + dfs "contain" and "z".
suppressMessages(library(metafor))
out <- "test/reference/meta"
ctrl <- list(threshold = 1e-12, maxiter = 10000, tol = 1e-12)
mvctrl <- list(rel.tol = 1e-10, iter.max = 10000, eval.max = 10000)

num <- function(x) if (length(x) == 0 || is.na(x)) "null" else sprintf("%.15g", x)
obj <- function(xs) paste0("{", paste0('"', names(xs), '": ', unlist(xs), collapse = ", "), "}")
vec <- function(x) paste0("[", paste(vapply(x, num, ""), collapse = ", "), "]")
strs <- function(x) paste0("[", paste0('"', x, '"', collapse = ", "), "]")
held <- function(name) read.csv(file.path(out, "held-out", paste0(name, ".csv")))
write <- function(d, name) {
  f <- file.path(out, "held-out", paste0(name, ".csv"))
  write.csv(d, f, row.names = FALSE)
  read.csv(f)
}

e <- escalc("OR", ai = ai, n1i = n1i, ci = ci, n2i = n2i, data = dat.egger2001)
egger <- write(data.frame(study = e$study, model = paste0("trial", e$id), game = "magnesium", yi = round(as.numeric(e$yi), 12),
  vi = round(as.numeric(e$vi), 12), ni = e$n1i + e$n2i), "egger2001")
set.seed(30)
ni <- sample(20:400, 20)
vi <- round(4 / ni, 8)
yi <- round(0.2 + 2.5 * sqrt(vi) + rnorm(20, 0, sqrt(vi + 0.01)), 6)
yi[20] <- 1.6
asym <- write(data.frame(study = paste0("s", 1:20), model = "m", game = "g", yi = yi, vi = vi, ni = ni), "asym20")
set.seed(47047)
sh <- read.csv(file.path(out, "tables/shipped.csv"))
shipped <- data.frame(yi = sh$yi, vi = sh$vi, ni = 2 * sh$n)
study <- rep(1:8, c(2, 3, 5, 2, 4, 3, 2, 4))
k <- length(study)
dose <- round(runif(8, 0, 2), 3)[study]
arm <- rep(c("a", "b"), length.out = k)
mvi <- round(runif(k, 0.003, 0.02), 6)
mlreg <- write(data.frame(study = paste0("st", study), model = paste0("c", seq_len(k)), game = "g",
  yi = round(0.1 + 0.15 * dose + 0.08 * (arm == "b") + rnorm(8, 0, 0.08)[study] + rnorm(k, 0, sqrt(0.004 + mvi)), 6),
  vi = mvi, dose = dose, arm = arm), "mlreg")

# Three-level profile-likelihood intervals of sigma^2_study and sigma^2_cell.
mlci <- function(d) {
  m <- rma.mv(yi, vi, random = ~ 1 | study / model, data = d, test = "t", dfs = "contain", control = mvctrl)
  ci <- confint(m, control = list(tol = 1e-12))
  obj(list(sigma2_outer = num(m$sigma2[1]), sigma2_inner = num(m$sigma2[2]),
    outer_lo = num(ci[[1]]$random[1, 2]), outer_hi = num(ci[[1]]$random[1, 3]),
    inner_lo = num(ci[[2]]$random[1, 2]), inner_hi = num(ci[[2]]$random[1, 3])))
}

infl <- function(d, test) {
  m <- rma(d$yi, d$vi, method = "REML", test = test, control = ctrl)
  f <- influence(m)$inf
  pdf(NULL)
  b <- baujat(m)
  dev.off()
  obj(list(rstudent = vec(f$rstudent), dffits = vec(f$dffits), cook_d = vec(f$cook.d), cov_r = vec(f$cov.r),
    tau2_del = vec(f$tau2.del), QE_del = vec(f$QE.del), hat = vec(f$hat), weight = vec(f$weight / 100),
    inf = paste0("[", paste(ifelse(f$inf == "*", "true", "false"), collapse = ", "), "]"), baujat_x = vec(b$x), baujat_y = vec(b$y)))
}
small <- function(d, test, with_ni = TRUE) {
  m <- if (with_ni) rma(d$yi, d$vi, ni = d$ni, method = "REML", test = test, control = ctrl) else
    rma(d$yi, d$vi, method = "REML", test = test, control = ctrl)
  preds <- if (with_ni) c("sei", "vi", "ni", "ninv", "sqrtni", "sqrtninv") else c("sei", "vi")
  reg <- list()
  for (p in preds) {
    r <- regtest(m, predictor = p)
    reg[[p]] <- obj(list(stat = num(r$zval), p = num(r$pval), df = num(if (is.null(r$ddf)) Inf else r$ddf), limit = num(r$est),
      limit_lo = num(r$ci.lb), limit_hi = num(r$ci.ub)))
  }
  reg <- lapply(reg, function(x) gsub("Inf", "null", x))
  rk <- ranktest(m)
  tf <- list()
  for (est in c("L0", "R0")) {
    t <- trimfill(m, estimator = est, control = ctrl)
    tf[[est]] <- obj(list(side = paste0('"', t$side, '"'), k0 = num(t$k0), estimate = num(t$b[1]), se = num(t$se), ci_lo = num(t$ci.lb),
      ci_hi = num(t$ci.ub), tau2 = num(t$tau2)))
  }
  sei <- sqrt(d$vi)
  pet <- summary(lm(d$yi ~ sei, weights = 1 / d$vi))$coefficients
  peese <- summary(lm(d$yi ~ d$vi, weights = 1 / d$vi))$coefficients
  obj(list(regtest = obj(reg), ranktest = obj(list(tau = num(rk$tau), p = num(rk$pval))), trimfill = obj(tf),
    pet = obj(list(estimate = num(pet[1, 1]), se = num(pet[1, 2]), p = num(pet[1, 4]), slope = num(pet[2, 1]))),
    peese = obj(list(estimate = num(peese[1, 1]), se = num(peese[1, 2]), p = num(peese[1, 4]), slope = num(peese[2, 1])))))
}

mlr <- function(d, mods, test) {
  # metafor 3.8 takes a given dfs as asking for t, so test "z" is fitted without it.
  fit <- function(...) if (test == "t") rma.mv(yi, vi, ..., random = ~ 1 | study / model, data = d, test = "t", dfs = "contain", control = mvctrl) else
    rma.mv(yi, vi, ..., random = ~ 1 | study / model, data = d, test = "z", control = mvctrl)
  m <- fit(mods = mods)
  m0 <- fit()
  obj(list(terms = strs(rownames(m$b)), b = vec(m$b), se = vec(m$se), stat = vec(m$zval), p = vec(m$pval),
    df = vec(if (test == "t") m$ddf else rep(NA, length(m$b))),
    ci_lo = vec(m$ci.lb), ci_hi = vec(m$ci.ub), QM = num(m$QM), QM_df1 = num(m$QMdf[1]), QM_df2 = num(m$QMdf[2]), QM_p = num(m$QMp),
    QE = num(m$QE), QE_df = num(m$k - m$p), sigma2_outer = num(m$sigma2[1]), sigma2_inner = num(m$sigma2[2]),
    null_outer = num(m0$sigma2[1]), null_inner = num(m0$sigma2[2]), logLik = num(as.numeric(logLik(m)))))
}

spread <- held("spread")
# Ranktest with tied variances (asym20's vi to 1 significant digit): cor.test's normal approximation with the tie correction.
rk_ties <- ranktest(asym$yi, signif(asym$vi, 1))
json <- paste0('{"R": "', R.version$major, ".", R.version$minor, '", "metafor": "', packageVersion("metafor"), '", ',
  '"profile": ', obj(list(ml3 = mlci(held("ml3")), ml4 = mlci(held("ml4")), ml6 = mlci(held("ml6")), mlreg = mlci(mlreg),
    konstantopoulos = mlci(read.csv(file.path(out, "tables/konstantopoulos.csv"))))), ", ",
  '"influence": ', obj(list(spread_adhoc = infl(spread, "adhoc"), spread_z = infl(spread, "z"), egger2001_z = infl(egger, "z"),
    egger2001_knha = infl(egger, "knha"), shipped_adhoc = infl(shipped, "adhoc"), asym20_adhoc = infl(asym, "adhoc"))), ", ",
  '"small": ', obj(list(egger2001_z = small(egger, "z"), egger2001_adhoc = small(egger, "adhoc"), asym20_z = small(asym, "z"),
    shipped_adhoc = small(shipped, "adhoc", FALSE), shipped_z = small(shipped, "z", FALSE))), ", ",
  '"mlreg": ', obj(list(both_t = mlr(mlreg, ~ dose + arm, "t"), both_z = mlr(mlreg, ~ dose + arm, "z"), dose_t = mlr(mlreg, ~ dose, "t"),
    arm_t = mlr(mlreg, ~ arm, "t"))), ", ",
  '"ranktest_ties": ', obj(list(tau = num(rk_ties$tau), p = num(rk_ties$pval))), "}")
writeLines(json, file.path(out, "reference-synthesis.json"))
cat("wrote", file.path(out, "reference-synthesis.json"), "\n")
