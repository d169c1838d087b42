# Held-out reference values for the intervals of samegame's meta-analysis (src/stats/meta/),
# computed by R's metafor (Viechtbauer 2010). Run from the repository root:
#
#   Rscript test/reference/meta/make-reference-intervals.R
#
# It writes the effect tables it uses (test/reference/meta/held-out/*.csv, inputs of the tests;
# none of them is used to build or tune the code) and test/reference/meta/reference-intervals.json.
# npm test reads only the committed files; it never runs R.
#
# Tables:
#   identical   three cells with yi = 0.2, vi = 0.01 (Hartung-Knapp's s^2 is 0)
#   equal       four games at 160/300 vs 150/300 (escalc "RD"): equal shifts, equal variances
#   spread      k = 8 simulated effects with tau^2 > 0
#   ml2, ml3, ml4, ml6  three-level tables: 2, 3, 4, 6 studies of 1 to 5 cells
#   tiny        ml4's effects with every vi = 1e-20 (the fit must scale the problem)
#   collinear   k = 10 with moderators x1, x2 = 2 x1 + 1 (numeric) and arm, arm2 (arm2 names
#               arm's levels otherwise): x2 and arm2's dummy are redundant
# Univariate fits: rma(method, test) for REML, DL, PM, ML x adhoc, knha, z; prediction interval
# predict(rma(..., test = "z"), pi.type = "riley") = estimate +- qt(0.975, k - 2) sqrt(tau^2 + se_z^2).
# Three-level: rma.mv(yi, vi, random = ~ 1 | study/cell, test = "t", dfs = "contain"), predict().
# Collinear: rma(yi, vi, mods = the five columns in samegame's order), which drops the redundant two.
# Q-profile intervals of tau^2, I^2 and H^2: confint(rma(yi, vi, method = "REML")) (its $random rows).
# Leave-one-out: leave1out(rma(yi, vi, method = "REML", test)).
suppressMessages(library(metafor))
out <- "test/reference/meta"
dir.create(file.path(out, "held-out"), showWarnings = FALSE, recursive = TRUE)
ctrl <- list(threshold = 1e-12, maxiter = 10000, tol = 1e-12)
mvctrl <- list(rel.tol = 1e-10, iter.max = 10000, eval.max = 10000)

num <- function(x) if (length(x) == 0 || is.na(x)) "null" else sprintf("%.15g", x)
obj <- function(xs) paste0("{", paste0('"', names(xs), '": ', unlist(xs), collapse = ", "), "}")
vec <- function(x) paste0("[", paste(vapply(x, num, ""), collapse = ", "), "]")
str <- function(x) paste0('"', x, '"')
write <- function(d, name) {
  f <- file.path(out, "held-out", paste0(name, ".csv"))
  write.csv(d, f, row.names = FALSE)
  read.csv(f)
}

set.seed(20261202)
identical <- write(data.frame(study = "s", model = paste0("m", 1:3), game = "g", yi = 0.2, vi = 0.01), "identical")
rd <- escalc("RD", ai = rep(160, 4), n1i = rep(300, 4), ci = rep(150, 4), n2i = rep(300, 4))
equal <- write(data.frame(study = "s", model = "m", game = paste0("g", 1:4), yi = as.numeric(rd$yi), vi = as.numeric(rd$vi)), "equal")
vi <- round(runif(8, 0.005, 0.03), 6)
spread <- write(data.frame(study = "s", model = paste0("m", 1:8), game = "g", yi = round(0.1 + rnorm(8, 0, sqrt(0.02 + vi)), 6), vi = vi), "spread")

three <- function(cells, name) {
  S <- length(cells); k <- sum(cells)
  study <- rep(seq_len(S), cells)
  u <- rnorm(S, 0, sqrt(0.01))[study]
  vi <- round(runif(k, 0.002, 0.02), 6)
  d <- data.frame(study = paste0("st", study), model = paste0("c", seq_len(k)), game = "g",
    yi = round(0.25 + u + rnorm(k, 0, sqrt(0.005 + vi)), 6), vi = vi)
  write(d, name)
}
ml2 <- three(c(3, 4), "ml2"); ml3 <- three(c(2, 3, 4), "ml3"); ml4 <- three(c(3, 1, 4, 2), "ml4"); ml6 <- three(c(2, 1, 3, 5, 1, 2), "ml6")
tiny <- ml4; tiny$vi <- 1e-20; tiny <- write(tiny, "tiny")

x1 <- round(runif(10, 0, 10), 3)
arm <- rep(c("a", "b"), 5)
collinear <- write(data.frame(study = "s", model = paste0("m", 1:10), game = "g",
  yi = round(0.1 + 0.03 * x1 + (arm == "b") * 0.1 + rnorm(10, 0, 0.12), 6), vi = round(runif(10, 0.004, 0.02), 6),
  x1 = x1, x2 = 2 * x1 + 1, arm = arm, arm2 = ifelse(arm == "a", "no", "yes")), "collinear")

uni <- function(d, method, test) {
  m <- rma(d$yi, d$vi, method = method, test = test, control = ctrl)
  pr <- predict(rma(d$yi, d$vi, method = method, test = "z", control = ctrl), pi.type = "riley")
  obj(list(estimate = num(m$b[1]), se = num(m$se), ci_lo = num(m$ci.lb), ci_hi = num(m$ci.ub), p = num(m$pval),
    tau2 = num(m$tau2), I2 = num(m$I2 / 100), Q = num(m$QE), pi_lo = num(pr$pi.lb), pi_hi = num(pr$pi.ub)))
}
unis <- function(d) {
  runs <- c()
  for (method in c("REML", "DL", "PM", "ML")) for (test in c("adhoc", "knha", "z")) runs[paste0(method, "_", test)] <- uni(d, method, test)
  obj(runs)
}
ml <- function(d) {
  m <- rma.mv(d$yi, d$vi, random = ~ 1 | study / model, data = d, test = "t", dfs = "contain", method = "REML", control = mvctrl)
  # nlminb stops about 1e-11 short of a variance's boundary at 0 (it works on log sigma^2); there the
  # model is refitted with that variance fixed at 0 (metafor's sigma2 argument), kept when its
  # restricted likelihood is at least as high, so the reference is the boundary optimum itself.
  for (j in 1:2) if (m$sigma2[j] < 1e-8) {
    fix <- c(NA, NA); fix[j] <- 0
    m0 <- rma.mv(d$yi, d$vi, random = ~ 1 | study / model, data = d, test = "t", dfs = "contain", method = "REML", control = mvctrl, sigma2 = fix)
    if (as.numeric(logLik(m0)) >= as.numeric(logLik(m))) m <- m0
  }
  pr <- predict(m)
  obj(list(studies = num(length(unique(d$study))), estimate = num(m$b[1]), se = num(m$se), df = num(m$ddf[1]),
    ci_lo = num(m$ci.lb), ci_hi = num(m$ci.ub), p = num(m$pval), sigma2_outer = num(m$sigma2[1]), sigma2_inner = num(m$sigma2[2]),
    logLik = num(as.numeric(logLik(m))), pi_lo = num(pr$pi.lb), pi_hi = num(pr$pi.ub)))
}
X <- cbind(x1 = collinear$x1, x2 = collinear$x2, armb = as.numeric(collinear$arm == "b"), arm2yes = as.numeric(collinear$arm2 == "yes"))
mc <- suppressWarnings(rma(collinear$yi, collinear$vi, mods = X, method = "REML", test = "adhoc", control = ctrl))
coll <- obj(list(kept = paste0("[", paste(str(c("intercept", colnames(X))[c(TRUE, !is.na(match(colnames(X), rownames(mc$b))))]), collapse = ", "), "]"),
  b = vec(mc$b), b_se = vec(mc$se), b_ci_lo = vec(mc$ci.lb), b_ci_hi = vec(mc$ci.ub), tau2 = num(mc$tau2), QM = num(mc$QM), QM_p = num(mc$QMp)))

qp <- function(d) {
  ci <- confint(rma(d$yi, d$vi, method = "REML", control = ctrl), control = list(tol = 1e-12))$random
  obj(list(tau2_lo = num(ci["tau^2", "ci.lb"]), tau2_hi = num(ci["tau^2", "ci.ub"]), I2_lo = num(ci["I^2(%)", "ci.lb"] / 100),
    I2_hi = num(ci["I^2(%)", "ci.ub"] / 100), H2_lo = num(ci["H^2", "ci.lb"]), H2_hi = num(ci["H^2", "ci.ub"])))
}
l1o <- function(d, test) {
  l <- leave1out(rma(d$yi, d$vi, method = "REML", test = test, control = ctrl))
  obj(list(estimate = vec(l$estimate), se = vec(l$se), ci_lo = vec(l$ci.lb), ci_hi = vec(l$ci.ub), tau2 = vec(l$tau2), I2 = vec(l$I2 / 100), Q = vec(l$Q)))
}
leave1 <- obj(list(spread_adhoc = l1o(spread, "adhoc"), spread_z = l1o(spread, "z"), ml6_adhoc = l1o(ml6, "adhoc")))
qprofile <- obj(list(identical = qp(identical), spread = qp(spread), ml4 = qp(ml4), ml6 = qp(ml6)))

writeLines(paste0('{"R": "', R.version$major, '.', R.version$minor, '", "metafor": "', packageVersion("metafor"), '", ',
  '"univariate": ', obj(list(identical = unis(identical), equal = unis(equal), spread = unis(spread), tiny = unis(tiny))), ', ',
  '"multilevel": ', obj(list(ml2 = ml(ml2), ml3 = ml(ml3), ml4 = ml(ml4), ml6 = ml(ml6), tiny = ml(tiny))), ', ',
  '"collinear": ', coll, ', "qprofile": ', qprofile, ', "leave1out": ', leave1, "}"), file.path(out, "reference-intervals.json"))
cat("wrote", file.path(out, "reference-intervals.json"), "\n")
