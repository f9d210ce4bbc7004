"""Numba kernels of the CAVI E-step of IWTM (Waters 2014, ch. 5; Secs 5.4.3, Eqs 5.10-5.12).

- :func:`topk_rows`: the k largest entries of every row of a matrix (top-C clusters of a
  datum under E l, the map_top largest mapping logits of an atom). Ties: the lower column
  index wins; each row's selection is sorted by value (descending), then index.
- :func:`chunk_candidates`: for one chunk of the E l GEMM (rows x C, row-major), the
  top-C selection fused with the candidate lists: the atoms whose most probable cluster
  is among a datum's top C and G_ik = sum_c b_kc E l_ic read from the chunk.
- :func:`local_kernel`: Eqs 5.11-5.12 for every document. q(z_di = t, k_di = k) is
  proportional to exp(E log theta_dt) exp(E log pi_tk + G_ik): the second factor does not
  change during a document's sweeps, so it is exponentiated once per datum and its sum
  over the candidate atoms (one T-vector per datum) is all a sweep needs; the final pass
  expands q(z, k) to accumulate the statistics. Documents run in ``N_BLOCKS`` fixed blocks
  (``prange``), each accumulating into its own copy of the statistics; the blocks are
  summed in order, so the bits do not depend on the number of threads.

- :func:`nearest_clusters`: each cluster's nearest other clusters (initial mapping).

Plain-numpy oracles: :mod:`.reference` (``topk_rows_ref``, ``candidates_ref``,
``sparse_local``).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from latentlab.kernels.special import digamma as nb_digamma

N_BLOCKS = 8  # document blocks of the local step (fixed: results independent of threads)


# ---------------------------------------------------------------------------- top-k
@nb.njit(cache=True)
def _topk_row(a, k, idx, val):
    """Insertion selection of the k largest entries of ``a`` into ``idx`` (sorted by value
    descending; on equal values the earlier = lower index first, and a later equal value
    never displaces an earlier one). ``val`` is scratch of length k. Finite input."""
    n = 0
    for c in range(a.shape[0]):
        v = a[c]
        if n == k:
            if not v > val[k - 1]:
                continue
            pos = k - 1
        else:
            pos = n
            n += 1
        while pos > 0 and val[pos - 1] < v:
            val[pos] = val[pos - 1]
            idx[pos] = idx[pos - 1]
            pos -= 1
        val[pos] = v
        idx[pos] = c


@nb.njit(cache=True, parallel=True)
def topk_rows(A, k, out):
    """out[i] = the k (<= A.shape[1]) largest entries of row i of A (see ``_topk_row``)."""
    R = A.shape[0]
    n_str = min(R, 64)  # stripes of rows (one scratch buffer each)
    for s in nb.prange(n_str):
        val = np.empty(k)
        for i in range(R * s // n_str, R * (s + 1) // n_str):
            _topk_row(A[i], k, out[i], val)


@nb.njit(cache=True, parallel=True)
def nearest_clusters(m, out):
    """out[c] = the out.shape[1] (< C) clusters nearest to cluster c other than c itself
    (squared distance of the rows of m, ascending; ties: the lower index first): the
    spread of the initial mapping (Sec. 5.4.7)."""
    C, D = m.shape
    k = out.shape[1]
    n_str = min(C, 64)
    for s in nb.prange(n_str):
        val = np.empty(k)
        neg = np.empty(C)
        for c in range(C * s // n_str, C * (s + 1) // n_str):
            for j in range(C):
                # four partial sums (dd mod 4): the loop pipelines, the same bits anywhere
                a0 = a1 = a2 = a3 = 0.0
                for d0 in range(0, D - 3, 4):
                    e0 = m[j, d0] - m[c, d0]
                    e1 = m[j, d0 + 1] - m[c, d0 + 1]
                    e2 = m[j, d0 + 2] - m[c, d0 + 2]
                    e3 = m[j, d0 + 3] - m[c, d0 + 3]
                    a0 += e0 * e0
                    a1 += e1 * e1
                    a2 += e2 * e2
                    a3 += e3 * e3
                for dd in range(D - D % 4, D):
                    e0 = m[j, dd] - m[c, dd]
                    a0 += e0 * e0
                neg[j] = -((a0 + a1) + (a2 + a3))
            neg[c] = -np.inf
            _topk_row(neg, k, out[c], val)


# ---------------------------------------------------------------------------- candidates
@nb.njit(cache=True, parallel=True)
def chunk_candidates(El, c_top, atom_ptr, atom_ids, map_idx, map_val):
    """One chunk of E l (rows x C): returns (top, ptr, atoms, G). ``top`` (rows x c_top)
    holds each row's c_top best clusters (``topk_rows`` order; with c_top >= C one column
    of zeros, the one group of an ``atom_ptr`` that holds every atom); ``ptr`` (rows + 1)
    is the CSR of the candidate atoms (grouped by top cluster in ``top`` order, then in
    ``atom_ids`` order) and G_ik = sum_j map_val[k, j] El[i, map_idx[k, j]] over the
    positive mapping weights."""
    R, C = El.shape
    sel = c_top < C
    top = np.zeros((R, c_top if sel else 1), np.int64)
    ptr = np.zeros(R + 1, np.int64)
    n_str = min(R, 64)  # stripes of rows (one scratch buffer each)
    for s in nb.prange(n_str):
        val = np.empty(c_top)
        for i in range(R * s // n_str, R * (s + 1) // n_str):
            if sel:
                _topk_row(El[i], c_top, top[i], val)
            cnt = 0
            for j in range(top.shape[1]):
                c = top[i, j]
                cnt += atom_ptr[c + 1] - atom_ptr[c]
            ptr[i + 1] = cnt
    for i in range(R):
        ptr[i + 1] += ptr[i]
    atoms = np.empty(ptr[R], np.int64)
    G = np.empty(ptr[R])
    J = map_idx.shape[1]
    for i in nb.prange(R):
        p = ptr[i]
        for j in range(top.shape[1]):
            c0 = top[i, j]
            for a in range(atom_ptr[c0], atom_ptr[c0 + 1]):
                k = atom_ids[a]
                g = 0.0
                for jj in range(J):
                    w = map_val[k, jj]
                    if w > 0.0:
                        g += w * El[i, map_idx[k, jj]]
                atoms[p] = k
                G[p] = g
                p += 1
    return top, ptr, atoms, G


# ---------------------------------------------------------------------------- local step
@nb.njit(cache=True)
def _doc_factors(i0, i1, cptr, atoms, G, elog_piT, B, col, mb):
    """For the data i0..i1 of a document: B[(p - base) T + t] = exp(E log pi_tk + G_ik -
    mb_i) of candidate p = (i, k), col[(i - i0) T + t] = sum_k B, mb_i = max_{k,t} of the
    exponent (base = cptr[i0]). Independent of q(theta_d): computed once per document."""
    T = elog_piT.shape[1]
    base = cptr[i0]
    for i in range(i0, i1):
        li = i - i0
        mx = -np.inf
        for p in range(cptr[i], cptr[i + 1]):
            g = G[p]
            k = atoms[p]
            for t in range(T):
                v = elog_piT[k, t] + g
                B[(p - base) * T + t] = v
                if v > mx:
                    mx = v
        mb[li] = mx
        for t in range(T):
            col[li * T + t] = 0.0
        for p in range(cptr[i], cptr[i + 1]):
            for t in range(T):
                e = math.exp(B[(p - base) * T + t] - mx)
                B[(p - base) * T + t] = e
                col[li * T + t] += e


@nb.njit(cache=True)
def _doc_pass(X, i0, i1, cptr, atoms, G, elog_piT, alpha, a_d, new_a, acc, B, col, mb,
              zetaT, n_k, s_k, q_k, ent):  # fmt: skip
    """Eq. 5.11 for the document's data under alpha~ = a_d, new_a = alpha + sum_i,k
    q(z_di = t, k) (Eq. 5.12). q(t, k) = E_t B_itk / z_i with E_t = exp(E log theta_dt -
    max): without ``acc`` only the per-datum sums ``col`` are read; with ``acc`` q(z, k) is
    expanded and the statistics (zeta^T, n_k, s_k, q_k, entropy) accumulated."""
    T = elog_piT.shape[1]
    D = X.shape[1]
    base = cptr[i0]
    s = 0.0
    for t in range(T):
        s += a_d[t]
    ps = nb_digamma(s)
    elog_th = np.empty(T)
    E = np.empty(T)
    ma = -np.inf
    for t in range(T):
        elog_th[t] = nb_digamma(a_d[t]) - ps
        ma = max(ma, elog_th[t])
    for t in range(T):
        E[t] = math.exp(elog_th[t] - ma)
        new_a[t] = alpha
    for i in range(i0, i1):
        if cptr[i + 1] == cptr[i]:
            continue  # no candidate atom: the datum drops out
        li = i - i0
        z = 0.0
        for t in range(T):
            z += E[t] * col[li * T + t]
        if not acc:
            for t in range(T):
                new_a[t] += E[t] * col[li * T + t] / z
            continue
        lz = math.log(z)
        xx = 0.0
        for dd in range(D):
            xx += X[i, dd] * X[i, dd]
        for p in range(cptr[i], cptr[i + 1]):
            k = atoms[p]
            off = (p - base) * T
            w = 0.0
            for t in range(T):
                q = E[t] * B[off + t] / z
                new_a[t] += q
                w += q
                if q > 0.0:
                    zetaT[k, t] += q
                    lu = (elog_th[t] - ma) + (elog_piT[k, t] + G[p] - mb[li])
                    ent[0] -= q * (lu - lz)
            if w > 0.0:
                n_k[k] += w
                for dd in range(D):
                    s_k[k, dd] += w * X[i, dd]
                q_k[k] += w * xx


@nb.njit(cache=True, parallel=True)
def local_kernel(X, indptr, cptr, atoms, G, elog_piT, alpha, max_local, tol, alpha_t, ndt,
                 accumulate, zetaT, n_k, s_k, q_k, ent):  # fmt: skip
    """Eqs 5.11-5.12 for every document from alpha~ = alpha + N_d/T until max |d alpha~| <
    tol * mean alpha~ (at most ``max_local`` sweeps), then one final pass that sets alpha~
    (and N_dt = alpha~ - alpha) and, with ``accumulate``, the statistics. The statistics
    have a leading block axis (zetaT: n_blocks x K x T, n_k, s_k, q_k, ent likewise):
    documents are split into that many contiguous blocks, run in parallel. Returns the
    sweeps used (final passes included)."""
    T = elog_piT.shape[1]
    nd = indptr.shape[0] - 1
    nblk = zetaT.shape[0]
    sweeps = np.zeros(nblk, np.int64)
    for b in nb.prange(nblk):
        d0 = nd * b // nblk
        d1 = nd * (b + 1) // nblk
        maxm = 1
        maxn = 1
        for d in range(d0, d1):
            maxm = max(maxm, cptr[indptr[d + 1]] - cptr[indptr[d]])
            maxn = max(maxn, indptr[d + 1] - indptr[d])
        B = np.empty(maxm * T)
        col = np.empty(maxn * T)
        mb = np.empty(maxn)
        new_a = np.empty(T)
        for d in range(d0, d1):
            i0 = indptr[d]
            i1 = indptr[d + 1]
            _doc_factors(i0, i1, cptr, atoms, G, elog_piT, B, col, mb)
            a_d = alpha_t[d]
            for t in range(T):
                a_d[t] = alpha + (i1 - i0) / T
            for _ in range(max_local):
                _doc_pass(X, i0, i1, cptr, atoms, G, elog_piT, alpha, a_d, new_a, False, B,
                          col, mb, zetaT[b], n_k[b], s_k[b], q_k[b], ent[b])  # fmt: skip
                sweeps[b] += 1
                delta = 0.0
                mean = 0.0
                for t in range(T):
                    delta = max(delta, abs(new_a[t] - a_d[t]))
                    mean += new_a[t] / T
                    a_d[t] = new_a[t]
                if delta < tol * mean:
                    break
            _doc_pass(X, i0, i1, cptr, atoms, G, elog_piT, alpha, a_d, new_a, accumulate, B,
                      col, mb, zetaT[b], n_k[b], s_k[b], q_k[b], ent[b])  # fmt: skip
            sweeps[b] += 1
            for t in range(T):
                a_d[t] = new_a[t]
                ndt[d, t] = new_a[t] - alpha
    return sweeps.sum()


# ---------------------------------------------------------------------------- GDPMM
@nb.njit(cache=True, parallel=True)
def softmax_rows(L):
    """Normalise every row of the logits L in place, L[i] <- exp(L[i]) / sum exp(L[i])
    (the responsibilities q(c_i) of the Gaussian DP mixture, Eq. 5.17's form on data), and
    return the summed entropy -sum_ic q log q = sum_i (log z_i - sum_c q_ic u_ic), u = L -
    max. Rows run in fixed stripes summed in order (bits independent of threads)."""
    R, C = L.shape
    n_str = max(1, min(R, 64))
    part = np.zeros(n_str)
    for s in nb.prange(n_str):
        h = 0.0
        for i in range(R * s // n_str, R * (s + 1) // n_str):
            mx = -np.inf
            for c in range(C):
                if L[i, c] > mx:
                    mx = L[i, c]
            z = 0.0
            eu = 0.0
            for c in range(C):
                u = L[i, c] - mx
                e = math.exp(u)
                L[i, c] = e
                z += e
                eu += e * u
            for c in range(C):
                L[i, c] /= z
            h += math.log(z) - eu / z
        part[s] = h
    return part.sum()


# ---------------------------------------------------------------------------- float32 E l
# The E l GEMM in float32 (about twice the float64 rate) only ranks the clusters; the
# selected top-C set and every value the later steps read are float64. For row i the
# float32 values El32_ic differ from the float64 ones v_ic by at most err_i (a rigorous
# bound, ``f32_error_bound``). With v_C the C-th largest El32_ic, every cluster outside the
# window {c : El32_ic >= v_C - 2 err_i} has v_ic < v_C - err_i, below the C clusters of the
# largest El32 values: the float64 top-C lies in the window. The window's v_ic are
# recomputed in float64 and the top-C taken from them (``topk_rows`` order and tie rule).

U32 = 2.0**-24  # unit roundoff of float32
U64 = 2.0**-53


def f32_error_bound(n: int) -> float:
    """kappa with |El32_ic - v_ic| <= kappa sum_j |a_ij| |w_jc| for an n-term dot product:
    rounding a and w to float32 (2 u32), any-order float32 summation of the products
    (gamma_n = n u32 / (1 - n u32), FMA or not), and the float64 dot it is compared with
    (gamma_n in u64); times 1.01 so that the rounding of the window's threshold (<< 1 %)
    is covered too. The caller bounds sum_j |a_ij||w_jc| <= ||a_i|| max_c ||w_c||."""
    g32 = n * U32 / (1.0 - n * U32)
    g64 = n * U64 / (1.0 - n * U64)
    return 1.01 * ((2.0 * U32 + U32 * U32) + g32 * (1.0 + U32) ** 2 + g64)


@nb.njit(cache=True)
def _dot(a, b):
    """float64 dot product in a fixed order (four partial sums by j mod 4, then pairwise)."""
    n = a.shape[0]
    a0 = a1 = a2 = a3 = 0.0
    for j in range(0, n - 3, 4):
        a0 += a[j] * b[j]
        a1 += a[j + 1] * b[j + 1]
        a2 += a[j + 2] * b[j + 2]
        a3 += a[j + 3] * b[j + 3]
    for j in range(n - n % 4, n):
        a0 += a[j] * b[j]
    return (a0 + a1) + (a2 + a3)


@nb.njit(cache=True, parallel=True)
def select_f32(El32, Xa, WT, err, c_top, top):
    """top[i] = the c_top clusters of largest float64 E l_ic = Xa[i] . WT[c] (``_dot``),
    by decreasing value, ties to the lower index, found from the float32 chunk ``El32``
    (rows x C) and the per-row bound ``err`` on |El32 - E l| (see the comment above).
    Returns the number of window entries beyond c_top (summed over rows)."""
    R, C = El32.shape
    n_str = min(R, 64)
    extra = np.zeros(max(n_str, 1), np.int64)
    for s in nb.prange(n_str):
        val32 = np.empty(c_top, El32.dtype)
        pos = np.empty(c_top, np.int64)
        val = np.empty(c_top)
        wc = np.empty(C, np.int64)
        wv = np.empty(C)
        for i in range(R * s // n_str, R * (s + 1) // n_str):
            _topk_row(El32[i], c_top, pos, val32)
            thr = np.float64(val32[c_top - 1]) - 2.0 * err[i]
            n = 0
            for c in range(C):
                if np.float64(El32[i, c]) >= thr:
                    wc[n] = c
                    wv[n] = _dot(Xa[i], WT[c])
                    n += 1
            _topk_row(wv[:n], c_top, pos, val)  # window in increasing c: same tie rule
            for j in range(c_top):
                top[i, j] = wc[pos[j]]
            extra[s] += n - c_top
    return extra.sum()


@nb.njit(cache=True, parallel=True)
def atom_weights(WT, map_idx, map_val, out):
    """out[k] = sum_j map_val[k, j] WT[map_idx[k, j]] over the positive weights: the atoms'
    E l weights, so that G_ik = sum_c b_kc E l_ic = Xa[i] . out[k]."""
    K, J = map_idx.shape
    n = WT.shape[1]
    for k in nb.prange(K):
        for d in range(n):
            out[k, d] = 0.0
        for j in range(J):
            w = map_val[k, j]
            if w > 0.0:
                c = map_idx[k, j]
                for d in range(n):
                    out[k, d] += w * WT[c, d]


@nb.njit(cache=True, parallel=True)
def candidates_from_top(Xa, top, atom_ptr, atom_ids, WkT):
    """(ptr, atoms, G) as ``chunk_candidates`` leaves them for a given top-C ``top``, with
    G_ik = Xa[i] . WkT[k] (``atom_weights``) in float64."""
    R, ct = top.shape
    ptr = np.zeros(R + 1, np.int64)
    for i in nb.prange(R):
        cnt = 0
        for j in range(ct):
            c = top[i, j]
            cnt += atom_ptr[c + 1] - atom_ptr[c]
        ptr[i + 1] = cnt
    for i in range(R):
        ptr[i + 1] += ptr[i]
    atoms = np.empty(ptr[R], np.int64)
    G = np.empty(ptr[R])
    for i in nb.prange(R):
        p = ptr[i]
        for j in range(ct):
            c0 = top[i, j]
            for a in range(atom_ptr[c0], atom_ptr[c0 + 1]):
                k = atom_ids[a]
                atoms[p] = k
                G[p] = _dot(Xa[i], WkT[k])
                p += 1
    return ptr, atoms, G
