"""The datasets latentlab knows: where each file comes from, its pinned checksums, its
citation and licence, which parser turns it into a canonical type, and the counts the
documents (or the data's publishers) state, which the parsed data must match exactly.

How a file is verified
----------------------
* ``FileSpec.sha256`` is the sha256 of the file *as the data mirror holds it*
  (``../shared/data/README.md``). A copy from a mirror must match it byte for byte.
* ``FileSpec.identical`` says whether that mirror file is byte-identical to the upstream
  file. If it is, a fresh download is verified against the same hash. If it is not (or
  this is not known), the download cannot be byte-verified; such a dataset pins
  ``Dataset.content_sha256``, a hash of the *parsed* content (BowCorpus.content_sha256,
  the sorted undirected edge list, the multiset of image hashes, the parsed design
  matrix) that both the mirror copy and a fresh download satisfy, checked at prepare time
  together with the published counts.
* UCI NIPS / Enron / NYTimes / PubMed (paper scale) are not in the mirror: their hashes are
  unknown (``sha256=None``); they are verified only by their published counts (D and W
  of the UCI readme) after parsing. This is weaker and is said so in their ``notes``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from latentlab.errors import ConfigError

UCI = "https://archive.ics.uci.edu/ml/machine-learning-databases/bag-of-words/"
CRAN_LDA = [
    "https://cran.r-project.org/src/contrib/Archive/lda/lda_1.5.2.tar.gz",
    "https://cran.r-project.org/src/contrib/lda_1.5.2.tar.gz",
]
CRAN_TM = [
    "https://cran.r-project.org/src/contrib/Archive/topicmodels/topicmodels_0.2-16.tar.gz",
    "https://cran.r-project.org/src/contrib/topicmodels_0.2-16.tar.gz",
]
DISIM = "https://raw.githubusercontent.com/karlrohe/disim/master/data/enron/"
MULAN = "https://sourceforge.net/projects/mulan/files/datasets/"
ARBYLON_NIPS = "http://www.arbylon.net/projects/nips/nips-20110223.zip"


@dataclass(frozen=True)
class Archive:
    """An upstream archive (tar, tar.gz, zip) unpacked under a tree's folder: ``url``, its
    pinned ``md5`` (None = unknown: the download is then checked only by the dataset's
    counts) and ``into``, the subfolder it is unpacked into ("" = the tree's folder)."""

    url: str
    md5: str | None = None
    into: str = ""


@dataclass(frozen=True)
class FileSpec:
    """One file of a dataset, under its relative name in the mirror and in ``resources/``.

    ``urls``: upstream locations tried in order. ``member``: when set, the URL is an
    archive (tar.gz, zip, rar) and the file is that member of it. ``sha256``: the pinned
    hash of the mirror copy (None = unknown). ``identical``: the mirror copy is the
    upstream file byte for byte, so a download is checked against ``sha256`` too.
    ``tree``: the file is a manifest (``<sha256>  <relative path>`` lines) and every file
    it lists, relative to the manifest's folder, is fetched and verified with it.
    ``archives``: a tree whose upstream is these archives: a download checks each one's
    pinned hash, unpacks it and writes the manifest of what it holds.
    """

    path: str
    urls: tuple[str, ...] = ()
    sha256: str | None = None
    identical: bool = False
    member: str | None = None
    tree: bool = False
    archives: tuple[Archive, ...] = ()


@dataclass(frozen=True)
class Dataset:
    name: str
    kind: str  # bow | featureset | temporal_graph | static_graph | tasks | synthetic
    title: str
    files: tuple[FileSpec, ...]
    parser: str | None  # None: no canonical form; a study reads the fetched files
    citation: str
    licence: str
    published: dict = field(default_factory=dict)
    content_sha256: str | None = None
    homepage: str | None = None
    notes: str = ""
    options: dict = field(default_factory=dict)

    def file(self, suffix: str) -> FileSpec:
        for f in self.files:
            if f.path.endswith(suffix):
                return f
        raise KeyError(f"{self.name}: no file ending in {suffix}")


def _uci(name: str, published: dict, sha_doc=None, sha_vocab=None, content=None, notes=""):
    return Dataset(
        name=f"uci_{name}" if name != "kos" else "kos",
        kind="bow",
        title=f"UCI Bag of Words: {name}",
        files=(
            FileSpec(f"uci-bow/docword.{name}.txt.gz", (UCI + f"docword.{name}.txt.gz",), sha_doc),
            FileSpec(f"uci-bow/vocab.{name}.txt", (UCI + f"vocab.{name}.txt",), sha_vocab),
        ),
        parser="uci",
        citation="Newman, D. (2008). Bag of Words. UCI Machine Learning Repository. "
        "https://doi.org/10.24432/C5ZG6P",
        licence="CC BY 4.0",
        published=published,
        content_sha256=content,
        homepage="https://archive.ics.uci.edu/dataset/164/bag+of+words",
        notes=notes,
    )


_UNVERIFIED = (
    "Not in the data mirror; upstream hashes unknown, so the download is verified only by "
    "the published D and W of the UCI readme (exact) after parsing, and by the file's own "
    "header agreeing with its body (NNZ lines, ids in range). Paper scale only."
)

_SCENE15_CLASSES = {
    "Bedroom": 216, "Coast": 360, "Forest": 328, "Highway": 260, "Industrial": 311,
    "InsideCity": 308, "Kitchen": 210, "LivingRoom": 289, "Mountain": 374, "Office": 215,
    "OpenCountry": 410, "Store": 315, "Street": 292, "Suburb": 241, "TallBuilding": 356,
}  # fmt: skip

_SHA = {
    "cora.cites": "cbb8ab39258ec6aab34bd5102b3824d6c6bdfca2dfd0edccec0fa54f2fcb014e",
    "cora.documents": "0d1e20ac66e15f545fc2ac62047abcc061c579c95c2538cfb1ab360fd69f2bde",
    "cora.titles": "54015d6f22605098d9ee4dfdc6d81cff2791b66f9291250fd520ff4b7a13069d",
    "cora.vocab": "716dc8d43751afd0b0987c3913ac10942daca4aa4f120f10d2e29157c82f6cc5",
    "newsgroup.label.map": "a112e0d1524f325c1c4dc57cf5d3b5f04fb681ff4a484a5fdc63dbcea5d38cfc",
    "newsgroup.test.documents": "0853501a210baae4649cd2d7339223c71ca29c565f1fc081e829197bc118c4af",
    "newsgroup.test.labels": "d51c654e1eaf34afe6cc2e8cf47bcf6b1ba5e2fedc93bfa73000c57c41bbb508",
    "newsgroup.train.documents": "f8a01774228b73ccd4a97e2298b68d0ea761b28f0937f9bf3d48e27a335c1d6a",
    "newsgroup.train.labels": "f91241629f02025092ce9b649e365dd65d7590003fddc38f28675dfb133572c0",
    "newsgroup.vocab": "67c46a41fcc3ad6e1a1c11da9060cc4dfa91d46afa2ab0536c45f7029a7e1ebe",
}


def _lda_file(stem: str) -> FileSpec:
    return FileSpec(
        f"cran/lda/{stem}.rda", tuple(CRAN_LDA), _SHA[stem], True, member=f"lda/data/{stem}.rda"
    )


_LDA_CITE = (
    "Chang, J. (2015). lda: Collapsed Gibbs Sampling Methods for Topic Models. R package 1.5.2."
)

_SNAP_SHA = {
    "snap_astroph": "7d46e9e6ce21bccc9642ab424c697dc4c3874beb9ff970304b0d985baaa70e1f",
    "snap_enron": "882a54abb8bb1488cf44e18f8a729c947b83a226ba64380cae571b7d5ab20655",
}

REGISTRY: dict[str, Dataset] = {}


def _add(ds: Dataset) -> None:
    REGISTRY[ds.name] = ds


_add(
    _uci(
        "kos",
        {"n_docs": 3430, "n_vocab": 6906, "nnz": 353160, "n_tokens": 467714},
        sha_doc="bfda052f8fd6e795f5f4b252cbf3748b79341c47cbd8f9f7a55ece9a3ed03976",
        sha_vocab="623b7b969793b32c4ea7d1ae8cd2e9ed99038bf51628f33f52349f9485aeab8e",
        content="3690095f3d3f7253900634bccd4d95ad4d44f68bf0c6e71d9440392f61fc4624",
        notes="The mirror's gzip bytes differ from upstream (same text expected): a download "
        "is verified by the content hash of the parsed corpus and the published counts.",
    )
)
_add(
    _uci(
        "nips",
        {"n_docs": 1500, "n_vocab": 12419},
        notes=_UNVERIFIED + " NNZ ~ 746,316 (literature; not enforced).",
    )
)
_add(
    _uci(
        "enron",
        {"n_docs": 39861, "n_vocab": 28102},
        notes=_UNVERIFIED + " NNZ ~ 3,710,420 (literature; not enforced).",
    )
)
_add(
    _uci(
        "nytimes",
        {"n_docs": 300000, "n_vocab": 102660},
        notes=_UNVERIFIED + " NNZ ~ 69,679,427 (literature; not enforced).",
    )
)
_add(
    _uci(
        "pubmed",
        {"n_docs": 8200000, "n_vocab": 141043},
        notes=_UNVERIFIED + " NNZ ~ 483,450,157 (literature; not enforced).",
    )
)

_add(
    Dataset(
        name="ap",
        kind="bow",
        title="Associated Press (TREC AP, as in Blei's lda-c), topicmodels::AssociatedPress",
        files=(
            FileSpec(
                "cran/topicmodels/AssociatedPress.rda",
                tuple(CRAN_TM),
                "96a87b1e302f7c8a669aaf94f8c1cdda1a743bd8f7e84761f5d5bf9494fb8dec",
                True,
                member="topicmodels/data/AssociatedPress.rda",
            ),
        ),
        parser="ap",
        citation="Blei, Ng & Jordan (2003), JMLR 3; "
        "Gruen & Hornik (2011), topicmodels, JSS 40(13).",
        licence="GPL-2 (topicmodels package)",
        published={"n_docs": 2246, "n_vocab": 10473, "nnz": 302031, "n_tokens": 435838},
        homepage="https://cran.r-project.org/package=topicmodels",
    )
)
_add(
    Dataset(
        name="cora",
        kind="bow",
        title="Cora abstracts with citations (lda package)",
        files=tuple(
            _lda_file(s) for s in ("cora.documents", "cora.vocab", "cora.cites", "cora.titles")
        ),
        parser="cora",
        citation="McCallum, Nigam, Rennie & Seymore (2000), Information Retrieval 3; " + _LDA_CITE,
        licence="LGPL (>= 2.1) (lda package)",
        published={"n_docs": 2410, "n_vocab": 2961, "n_tokens": 136394, "n_links": 4356},
        homepage="https://cran.r-project.org/package=lda",
    )
)
_add(
    Dataset(
        name="newsgroups",
        kind="bow",
        title="20 Newsgroups, bydate split (lda package); train then test documents",
        files=tuple(
            _lda_file(s)
            for s in (
                "newsgroup.train.documents",
                "newsgroup.test.documents",
                "newsgroup.train.labels",
                "newsgroup.test.labels",
                "newsgroup.vocab",
                "newsgroup.label.map",
            )
        ),
        parser="newsgroups",
        citation="Lang (1995), NewsWeeder, ICML; Rennie's 20news-bydate; " + _LDA_CITE,
        licence="LGPL (>= 2.1) (lda package); the newsgroup posts are public",
        published={
            "n_docs": 18774,
            "n_train": 11269,
            "n_test": 7505,
            "n_vocab": 61188,
            "n_tokens": 4562219,
            "n_train_tokens": 2765300,
            "n_test_tokens": 1796919,
            "n_labels": 20,
        },
        homepage="https://cran.r-project.org/package=lda",
        notes="One corpus: the 11,269 training documents first, then the 7,505 test documents; "
        "metadata['split'] gives the two ranges (BowCorpus.predefined_split()).",
    )
)
_add(
    Dataset(
        name="yeast",
        kind="tasks",
        title="Yeast (Mulan multi-label)",
        files=(
            FileSpec(
                "mulan/yeast-train.arff",
                (MULAN + "yeast.rar",),
                "e759dc991ff54694a4ff9c4314f3be0d6fd2b1994a4b563f57e416394c6aebbd",
                True,
                member="yeast-train.arff",
            ),
            FileSpec(
                "mulan/yeast-test.arff",
                (MULAN + "yeast.rar",),
                "4aaac102bff9669a765bf0b378602e5cc8c3b181048282e2f003117b496d552a",
                True,
                member="yeast-test.arff",
            ),
        ),
        parser="mulan",
        options={"n_labels": 14},
        citation="Elisseeff & Weston (2001), NIPS 14; Tsoumakas, Spyromitros-Xioufis, Vilcek & "
        "Vlahavas (2011), Mulan, JMLR 12.",
        licence="research use (Mulan datasets page)",
        published={
            "n_train": 1500,
            "n_test": 917,
            "n_rows": 2417,
            "n_features": 103,
            "n_labels": 14,
        },
        homepage="https://mulan.sourceforge.net/datasets-mlc.html",
        notes="Upstream is a .rar archive: extracting it needs bsdtar, unrar or 7z on PATH.",
    )
)
_add(
    Dataset(
        name="scene_mulan",
        kind="tasks",
        title="Scene (Mulan multi-label)",
        files=(
            FileSpec(
                "mulan/scene-train.arff",
                (MULAN + "scene.rar",),
                "b53ba93bdf412de922e3960389bcee24744fa3e872ce610511fc1d750888b64d",
                True,
                member="scene-train.arff",
            ),
            FileSpec(
                "mulan/scene-test.arff",
                (MULAN + "scene.rar",),
                "ea38d20296b3ff7e220f477a3b802a9bcb2d768881fe6ee163efbc97ea527a42",
                True,
                member="scene-test.arff",
            ),
        ),
        parser="mulan",
        options={"n_labels": 6},
        citation="Boutell, Luo, Shen & Brown (2004), Pattern Recognition 37(9); Tsoumakas et al. "
        "(2011), Mulan, JMLR 12.",
        licence="research use (Mulan datasets page)",
        published={
            "n_train": 1211,
            "n_test": 1196,
            "n_rows": 2407,
            "n_features": 294,
            "n_labels": 6,
        },
        homepage="https://mulan.sourceforge.net/datasets-mlc.html",
        notes="Upstream is a .rar archive: extracting it needs bsdtar, unrar or 7z on PATH.",
    )
)
_add(
    Dataset(
        name="school",
        kind="tasks",
        title="ILEA Inner London school exam scores (multi-task packaging)",
        files=(
            FileSpec(
                "school/school.mat",
                ("https://raw.githubusercontent.com/jiayuzhou/MALSAR/master/data/school.mat",),
                "57fb3238fdd03a9aa17276e2ce18d9bbb5d128c3261e794fe6233b58b6909068",
                False,
            ),
        ),
        parser="school",
        citation="Goldstein (1991), Multilevel modelling of survey data, The Statistician 40; "
        "Argyriou, Evgeniou & Pontil (2008), Convex multi-task feature learning, MLJ 73.",
        licence="research use (public multi-task learning benchmark)",
        published={"n_rows": 15362, "n_tasks": 139, "n_features": 28, "n_labels": 1},
        content_sha256="02bf5e0b26fc42fe13381b840daa34603828e288fc86a0a4adac7591ac9b9e6a",
        homepage="https://home.ttic.edu/~argyriou/code/",
        notes="The mirror's school.mat is the public MTL packaging (X, Y: 1x139 cells; 27 "
        "one-hot attributes + a bias column). Its upstream byte identity is not known; the "
        "MALSAR copy is used as the download source and verified by the parsed-content hash. "
        "The original split files school_{1..10}_indexes.mat are not included.",
    )
)
_add(
    Dataset(
        name="enron_email",
        kind="temporal_graph",
        title="Enron email network, timestamped (Perry & Wolfe's coding of Zhou et al. 2007)",
        files=(
            FileSpec(
                "enron-email/employees.txt",
                (DISIM + "employees.txt",),
                "05794eba0e94f1d8e5bff47d43eb9a26b737e46d4aacadfea5a817e49fda0f90",
                True,
            ),
            FileSpec(
                "enron-email/messages.tsv",
                (DISIM + "messages.tsv",),
                "e26606cfb7a9b6c3a3f11bc7e0a23c7ca83a09bb589760b3a1287b9b01efb776",
                True,
            ),
            FileSpec(
                "enron-email/recipients.tsv",
                (DISIM + "recipients.tsv",),
                "cbc71bc8822365b451fb1d4d1e7ba48de2f4d23cda94008368a425cc8a2023f8",
                True,
            ),
        ),
        parser="enron_email",
        citation="Perry & Wolfe (2013), Point process modelling for directed interaction "
        "networks, JRSS-B 75; Zhou et al. (2007); Klimt & Yang (2004).",
        licence="public (Enron corpus released by FERC); disim repository",
        published={"n_actors": 156, "n_events": 21635, "n_receiver_rows": 38388},
        homepage="https://github.com/karlrohe/disim",
    )
)
for _name, _file, _pub, _content, _cite in (
    (
        "snap_astroph",
        "ca-AstroPh.txt.gz",
        {"n_nodes": 18772, "n_edges": 198110, "n_directed_lines": 396160, "n_self_loops": 60},
        "b65f68a51bf64c4e4eae53574a10a091e46f9ac8327d2b8dedc2156e822d2687",
        "Leskovec, Kleinberg & Faloutsos (2007), Graph evolution, ACM TKDD 1(1).",
    ),
    (
        "snap_enron",
        "email-Enron.txt.gz",
        {"n_nodes": 36692, "n_edges": 183831, "n_directed_lines": 367662, "n_self_loops": 0},
        "62a3e91392a5c73d3f85c0925b837143d9007edbf0b8bcea99a340866d21897c",
        "Klimt & Yang (2004); Leskovec, Lang, Dasgupta & Mahoney (2009), "
        "Internet Mathematics 6(1).",
    ),
):
    _add(
        Dataset(
            name=_name,
            kind="static_graph",
            title=f"SNAP {_file.split('.')[0]} (undirected)",
            files=(
                FileSpec(
                    f"snap/{_file}",
                    (f"https://snap.stanford.edu/data/{_file}",),
                    _SNAP_SHA[_name],
                    False,
                ),
            ),
            parser="snap",
            citation=_cite,
            licence="SNAP datasets: free for research use (cite the source)",
            published=_pub,
            content_sha256=_content,
            homepage="https://snap.stanford.edu/data/",
            notes="Each undirected pair is listed in both directions (a self-loop once); "
            "n_edges counts unordered pairs including self-loops. The mirror gzip differs "
            "from upstream: verified by the hash of the sorted edge list.",
        )
    )
_add(
    Dataset(
        name="scene15",
        kind="featureset",
        title="15-Scene images (Lazebnik et al. 2006; contains 13-scene and 8-scene)",
        files=(
            FileSpec(
                "scene15/MANIFEST.sha256",
                ("https://figshare.com/ndownloader/articles/7007177/versions/1",),
                "146002b31b26a2588a0b8e59ab47f0846cd49558a888787ea842b8eceac3b132",
                False,
                tree=True,
            ),
        ),
        parser="scene15",
        options={"classes": _SCENE15_CLASSES},
        citation="Lazebnik, Schmid & Ponce (2006), CVPR; Fei-Fei & Perona (2005), CVPR; "
        "Oliva & Torralba (2001), IJCV 42.",
        licence="research use",
        published={"n_images": 4485, "n_classes": 15, "per_class": _SCENE15_CLASSES},
        content_sha256="10b34163d7c052952541728d38fa78213beee346971791c1b4231c166f4be2f4",
        homepage="https://figshare.com/articles/dataset/15-Scene_Image_Dataset/7007177",
        notes="Images are byte-identical to upstream; the mirror's train/test folders (100 per "
        "class in train) are a packaging, not a document's split. A download is repackaged "
        "under scene15/all/<Class>/ and verified by the multiset of (class, image sha256).",
    )
)

# SUN397 (Xiao et al. 2010): the iwtm study's Sec. 6.5 protocol reads its images and
# official partitions through the manifest (no canonical form: parser None). Not in the
# data mirror; the publishers give no checksum, the MD5s are torchvision.datasets.SUN397's.
SUN397_URL = "http://vision.princeton.edu/projects/2010/SUN/SUN397.tar.gz"
SUN397_PARTITIONS_URL = "https://vision.princeton.edu/projects/2010/SUN/download/Partitions.zip"
_add(
    Dataset(
        name="sun397",
        kind="images",
        title="SUN397 scene images and their 10 official train/test partitions",
        files=(
            FileSpec(
                "sun397/MANIFEST.sha256",
                (SUN397_URL, SUN397_PARTITIONS_URL),
                tree=True,
                archives=(
                    Archive(SUN397_URL, "8ca2778205c41d23104230ba66911c7a"),
                    Archive(
                        SUN397_PARTITIONS_URL, "29a205c0a0129d21f36cbecfefe81881", "Partitions"
                    ),
                ),
            ),
        ),
        parser=None,
        citation="Xiao, Hays, Ehinger, Oliva & Torralba (2010), SUN database: large-scale "
        "scene recognition from abbey to zoo, CVPR.",
        licence="research use (SUN database terms)",
        # the checks fetch runs on the unpacked tree (latentlab.data.parsers.sun397)
        published={"n_classes": 397, "partition_lines": 50 * 397},
        homepage="https://vision.princeton.edu/projects/2010/SUN/",
        notes="Not in the data mirror (a mirror copy would hold sun397/MANIFEST.sha256 and "
        "the files it lists, SUN397/<a>/<class>/<image>.jpg and Partitions/*.txt). A download "
        "is verified by the two archives' MD5s (torchvision.datasets.SUN397 publishes them), "
        "then by the counts: 397 classes, 19,850 lines in every Training_/Testing_ partition "
        "file, every listed image present. The manifest is written from the unpacked files. "
        "About 37 GB; paper scale only.",
    )
)

# Foulds (2014) ch. 3 citation corpora. Neither is in the data mirror and no upstream
# hash is known, so (like the UCI corpora of paper scale) they are verified after parsing
# by the counts their publishers document, exactly.
_add(
    Dataset(
        name="aan",
        kind="bow",
        title="ACL Anthology Network, release 2013: ACL papers 1987-2011 with citations",
        files=(
            FileSpec(
                "aan/aanrelease2013.tar.gz",
                ("https://www.dropbox.com/s/i9r9akdptyzm6pj/aanrelease2013.tar.gz?dl=1",),
            ),
        ),
        parser="aan",
        options={
            "citations": "release/2013/acl.txt",
            "metadata": "release/2013/acl-metadata.txt",
            "venue": "ACL",
            "years": [1987, 2011],
            "min_len": 3,
            "min_df": 5,
            # the release's own files, as counted by its users (chbrown/aan README)
            "expect": {"citation_lines": 110930, "metadata_entries": 20989},
        },
        citation="Radev, Muthukrishnan, Qazvinian & Abu-Jbara (2013), The ACL Anthology "
        "Network corpus, Language Resources and Evaluation 47(4), 919-944.",
        licence="research use (AAN release terms)",
        published={"n_docs": 3286},
        homepage="http://clair.eecs.umich.edu/aan/index.php",
        notes="The document (Sec 3.5, footnote 4) points to clair.eecs.umich.edu/aan; the "
        "2013 tarball is no longer served there, and the URL above is the re-host used by "
        "public scripts (not the publisher's), with no published checksum. Verification: "
        "acl.txt must have 110,930 'A ==> B' lines and acl-metadata.txt 20,989 entries "
        "(the release's counts as documented by its users), and the subset (venue ACL, "
        "1987-2011, papers with text) must have the document's 3,286 articles; the "
        "document does not say how it chose them, so a mismatch stops prepare with both "
        "counts. Tokenisation is ours (options). Not downloadable on a machine without "
        "network; paper scale only.",
    )
)
_add(
    Dataset(
        name="nips_cite",
        kind="bow",
        title="NIPS 0-12 (1987-1999) with internal citations and authors (Heinrich)",
        files=tuple(
            FileSpec(f"nips-arbylon/{m}", (ARBYLON_NIPS,), member=m)
            for m in (
                "nips.corpus",
                "nips.vocab",
                "nips.docs",
                "nips.cite",
                "nips.authors",
                "nips.authors.key",
            )
        ),  # fmt: skip
        parser="nips_cite",
        citation="Heinrich, G. (2010), NIPS0-12 test collection with citation structure, "
        "arbylon.net; based on Roweis' nips12raw_str602 (Globerson, Chechik, Pereira & "
        "Tishby 2007 for the text files).",
        licence="research use (arbylon.net resources)",
        published={"n_docs": 1740, "n_vocab": 13649, "n_tokens": 2301375, "n_links": 1287},
        homepage="http://www.arbylon.net/resources.html",
        notes="The document's NIPS corpus (Sec 3.5, footnote 5: arbylon.net, Heinrich, based "
        "on Roweis; 1,740 articles 1987-1999). Not in the data mirror and no checksum is "
        "published: verified by the collection readme's counts (M = 1740 documents, "
        "V = 13,649 terms, W = 2,301,375 words, C = 1,287 internal citations), exactly. "
        "Author lists are kept in the metadata (author_ids, author_names). Paper scale "
        "only.",
    )
)

SYNTHETIC = ("synth_lda", "synth_hdp")

# Cluster resources of the prepare step (memory MB, runtime minutes) where a dataset needs
# more than the default (rules/data.smk).
PREPARE_RESOURCES = {
    "newsgroups": (4000, 15),
    "scene15": (3000, 20),
    "uci_enron": (8000, 30),
    "uci_nytimes": (32000, 120),
    "uci_pubmed": (128000, 600),
}
PREPARE_DEFAULT = (2000, 10)


def prepare_resources(name: str) -> tuple[int, int]:
    """(mem_mb, runtime minutes) of ``name``'s prepare job."""
    return PREPARE_RESOURCES[name] if name in PREPARE_RESOURCES else PREPARE_DEFAULT


def synthetic_params(synthetic: dict, name: str, base_seed: int) -> tuple[int, dict]:
    """(seed, parameters) of synthetic corpus ``name`` from the config's ``synthetic``
    section: the run's base seed plus the corpus's ``seed_offset``; a corpus the section
    does not list is generated with its generator's defaults."""
    params = dict(synthetic[name]) if name in synthetic else {}
    offset = int(params["seed_offset"]) if "seed_offset" in params else 0
    return base_seed + offset, params


def get(name: str) -> Dataset:
    try:
        return REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(REGISTRY) + list(SYNTHETIC))
        raise ConfigError("data.datasets", f"unknown dataset {name!r}; known: {known}") from None


def external_names() -> list[str]:
    return sorted(REGISTRY)


def prepared_names() -> list[str]:
    """The datasets with a canonical form (a prepare step): every one with a parser."""
    return [n for n in external_names() if REGISTRY[n].parser is not None]
