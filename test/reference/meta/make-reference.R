# Reference values for samegame's random-effects meta-analysis (src/stats/meta/), computed by
# R's metafor (Viechtbauer 2010) — an independent implementation. Run from the repository root:
#
#   Rscript test/reference/meta/make-reference.R
#
# It writes the effect tables it uses (test/reference/meta/tables/*.csv, inputs of the tests) and
# test/reference/meta/reference.json. npm test reads only the committed files; it never runs R.
#
# Tables:
#   homogeneous  k = 10 simulated effects whose spread is below sampling error (tau^2 = 0)
#   shipped      the shift (risk difference, escalc "RD", add = 1/2, to = "only0") of the 12
#                model x game cells of data/lore-heydari-2024/rates.csv (I^2 > 0.9)
#   bcg          BCG vaccine trials (dat.bcg, log risk ratio) with moderators ablat (numeric)
#                and alloc (categorical, levels in first-appearance order)
# Three-level models (rma.mv, random = ~ 1 | outer/inner, test = "t", dfs = "contain", REML):
#   konstantopoulos  dat.konstantopoulos2011, schools within districts
#   shipped          the shipped table, games within models
#
# Prediction intervals use t with k - 2 degrees of freedom and the conventional standard error
# (Higgins, Thompson & Spiegelhalter 2009; IntHout et al. 2016), whatever the test:
# estimate +- qt(0.975, k - 2) * sqrt(tau^2 + se_z^2), which is metafor's
# predict(rma(..., test = "z"), pi.type = "riley"). Three-level: metafor's predict (t with the
# containment df, studies - 1).
suppressMessages(library(metafor))
out <- "test/reference/meta"
dir.create(file.path(out, "tables"), showWarnings = FALSE, recursive = TRUE)
ctrl <- list(threshold = 1e-12, maxiter = 10000, tol = 1e-12)

num <- function(x) if (is.na(x)) "null" else sprintf("%.15g", x)
obj <- function(xs) paste0("{", paste0('"', names(xs), '": ', unlist(xs), collapse = ", "), "}")
vec <- function(x) paste0("[", paste(vapply(x, num, ""), collapse = ", "), "]")

# --- effect tables ---------------------------------------------------------------------------
set.seed(20240818)
vi <- round(runif(10, 0.01, 0.05), 6)
homogeneous <- data.frame(study = "sim", model = paste0("m", 1:10), game = "g",
  yi = round(0.2 + rnorm(10) * sqrt(vi) * 0.5, 6), vi = vi)

rates <- read.csv("data/lore-heydari-2024/rates.csv", check.names = FALSE)
rates$x <- floor((2 * round(rates$rate * 1000) * rates$n + 1000) / 2000)  # round half up, exact for 3 decimals
b <- rates[rates$framing == "business", ]; s <- rates[rates$framing == "friend-sharing", ]
stopifnot(all(b$model == s$model), all(b$game == s$game))
rd <- escalc("RD", ai = s$x, n1i = s$n, ci = b$x, n2i = b$n, add = 1/2, to = "only0")
shipped <- data.frame(study = "lore-heydari-2024", model = b$model, game = b$game,
  yi = as.numeric(rd$yi), vi = as.numeric(rd$vi), x_base = b$x, x_alt = s$x, n = b$n)

data(dat.bcg, package = "metadat")
bcgE <- escalc("RR", ai = tpos, bi = tneg, ci = cpos, di = cneg, data = dat.bcg)
bcg <- data.frame(study = "bcg", model = bcgE$author, game = as.character(bcgE$year),
  yi = round(as.numeric(bcgE$yi), 6), vi = round(as.numeric(bcgE$vi), 6), ablat = bcgE$ablat, alloc = bcgE$alloc)

data(dat.konstantopoulos2011, package = "metadat")
k11 <- dat.konstantopoulos2011
konst <- data.frame(study = paste0("d", k11$district), model = paste0("s", k11$school), game = "g", yi = k11$yi, vi = k11$vi)

write.csv(homogeneous, file.path(out, "tables/homogeneous.csv"), row.names = FALSE)
write.csv(shipped, file.path(out, "tables/shipped.csv"), row.names = FALSE)
write.csv(bcg, file.path(out, "tables/bcg.csv"), row.names = FALSE)
write.csv(konst, file.path(out, "tables/konstantopoulos.csv"), row.names = FALSE)
# Read the tables back as written, so R and samegame start from the same decimal text.
homogeneous <- read.csv(file.path(out, "tables/homogeneous.csv"))
shipped <- read.csv(file.path(out, "tables/shipped.csv"))
bcg <- read.csv(file.path(out, "tables/bcg.csv"))
konst <- read.csv(file.path(out, "tables/konstantopoulos.csv"))

# --- univariate models -----------------------------------------------------------------------
fit <- function(d, method, test, mods = NULL) {
  m <- if (is.null(mods)) rma(d$yi, d$vi, method = method, test = test, control = ctrl)
       else rma(d$yi, d$vi, mods = mods, method = method, test = test, control = ctrl)
  k <- m$k; se <- m$se[1]
  pi <- c(NA, NA)
  if (k > 2 && is.null(mods)) {
    pr <- predict(rma(d$yi, d$vi, method = method, test = "z", control = ctrl), pi.type = "riley")
    pi <- c(pr$pi.lb, pr$pi.ub)
  }
  r <- list(estimate = num(m$b[1]), se = num(se), ci_lo = num(m$ci.lb[1]), ci_hi = num(m$ci.ub[1]),
    tau2 = num(m$tau2), I2 = num(m$I2 / 100), H2 = num(m$H2), Q = num(m$QE), Q_df = num(k - m$p), Q_p = num(m$QEp),
    pi_lo = num(pi[1]), pi_hi = num(pi[2]))
  if (!is.null(mods)) r <- c(r, list(b = vec(m$b), b_se = vec(m$se), b_ci_lo = vec(m$ci.lb), b_ci_hi = vec(m$ci.ub),
    b_p = vec(m$pval), QM = num(m$QM), QM_df1 = num(m$QMdf[1]), QM_df2 = num(m$QMdf[2]), QM_p = num(m$QMp)))
  obj(r)
}
fits <- function(d, mods = NULL) {
  runs <- c()
  for (method in c("REML", "DL", "PM", "ML")) for (test in c("adhoc", "knha", "z"))
    runs[paste0(method, "_", test)] <- fit(d, method, test, mods)
  obj(runs)
}
alloc <- factor(bcg$alloc, levels = unique(bcg$alloc))
univariate <- obj(list(
  homogeneous = fits(homogeneous), shipped = fits(shipped), bcg = fits(bcg),
  bcg_ablat = fits(bcg, cbind(bcg$ablat)),
  bcg_ablat_alloc = fits(bcg, model.matrix(~ ablat + alloc, data.frame(ablat = bcg$ablat, alloc = alloc))[, -1])))

# Fixed effect (method = "FE") with the z test.
fe <- function(d) { m <- rma(d$yi, d$vi, method = "FE"); obj(list(estimate = num(m$b[1]), se = num(m$se), ci_lo = num(m$ci.lb),
  ci_hi = num(m$ci.ub), Q = num(m$QE), Q_p = num(m$QEp), I2 = num(m$I2 / 100), H2 = num(m$H2))) }
fixed <- obj(list(homogeneous = fe(homogeneous), shipped = fe(shipped), bcg = fe(bcg)))

# --- three-level models ----------------------------------------------------------------------
ml <- function(yi, vi, outer, inner) {
  m <- rma.mv(yi, vi, random = ~ 1 | outer / inner, test = "t", dfs = "contain", method = "REML",
    control = list(rel.tol = 1e-10, iter.max = 10000, eval.max = 10000))
  pr <- predict(m)
  pi <- c(pr$pi.lb, pr$pi.ub)
  obj(list(estimate = num(m$b[1]), se = num(m$se), ci_lo = num(m$ci.lb), ci_hi = num(m$ci.ub), df = num(m$ddf[1]),
    sigma2_outer = num(m$sigma2[1]), sigma2_inner = num(m$sigma2[2]), Q = num(m$QE), Q_p = num(m$QEp),
    logLik = num(as.numeric(logLik(m))), pi_lo = num(pi[1]), pi_hi = num(pi[2])))
}
multilevel <- obj(list(
  konstantopoulos = ml(konst$yi, konst$vi, konst$study, konst$model),
  shipped = ml(shipped$yi, shipped$vi, shipped$model, shipped$game)))

# --- Table 3 with random effects over games (--pooling random), attenuation 1 -------------------
# Per model: the shift (escalc RD as above) and the Jensen-Shannon distance d = sqrt(JSD/ln 2),
# its variance by the delta method with a numerical gradient (central differences), pooled by
# REML with Hartung-Knapp and the ad hoc truncation max(1, s^2) (test = "adhoc", the default); R = 1 - d^2.
H <- function(p) ifelse(p > 0, -p * log(p), 0) + ifelse(p < 1, -(1 - p) * log(1 - p), 0)
dist <- function(a, b) sqrt(max(0, H((a + b) / 2) - (H(a) + H(b)) / 2) / log(2))
adj <- with(shipped, (x_base == 0 | x_base == n | x_alt == 0 | x_alt == n))
ps <- with(shipped, (x_alt + adj / 2) / (n + adj)); pb <- with(shipped, (x_base + adj / 2) / (n + adj)); nn <- shipped$n + adj
h <- 1e-6
dd <- mapply(dist, ps, pb)
# At d = 0 (equal rates) d is not differentiable: its one-sided slope (a forward difference) is used.
ga <- mapply(function(a, b) if (dist(a, b) == 0) dist(a + h, b) / h else (dist(a + h, b) - dist(a - h, b)) / (2 * h), ps, pb)
gb <- mapply(function(a, b) if (dist(a, b) == 0) dist(a, b + h) / h else (dist(a, b + h) - dist(a, b - h)) / (2 * h), ps, pb)
dv <- ga^2 * ps * (1 - ps) / nn + gb^2 * pb * (1 - pb) / nn
t3 <- function(rows, name) {
  s <- rma(shipped$yi[rows], shipped$vi[rows], method = "REML", test = "adhoc", control = ctrl)
  d <- rma(dd[rows], dv[rows], method = "REML", test = "adhoc", control = ctrl)
  toR <- function(x) 1 - min(1, max(0, x))^2
  obj(list(model = paste0('"', name, '"'), k = num(s$k), shift = num(s$b[1]), shift_lo = num(s$ci.lb), shift_hi = num(s$ci.ub), shift_tau2 = num(s$tau2), shift_I2 = num(s$I2 / 100),
    R = num(toR(d$b[1])), R_lo = num(toR(d$ci.ub)), R_hi = num(toR(d$ci.lb)), R_tau2 = num(d$tau2), R_I2 = num(d$I2 / 100)))
}
table3 <- paste0("[", paste(c(lapply(unique(shipped$model), function(m) t3(shipped$model == m, m)), t3(rep(TRUE, nrow(shipped)), "Pooled")), collapse = ", "), "]")

writeLines(paste0('{"R": "', R.version$major, '.', R.version$minor, '", "metafor": "', packageVersion("metafor"), '", "univariate": ', univariate,
  ', "fixed": ', fixed, ', "multilevel": ', multilevel, ', "table3_random": ', table3, "}"), file.path(out, "reference.json"))
cat("wrote", file.path(out, "reference.json"), "\n")
