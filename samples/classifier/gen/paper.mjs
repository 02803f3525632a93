// Long research papers as text extracted from multi-page PDFs: title, authors and affiliations,
// abstract, numbered sections with citations, equations, figure and table captions, running
// headers, a reference list. Fields from computing, physics, biology and medicine. They are
// labelled `other`: the service has no paper type, and a paper must not look like a contract
// or a resume just because it is long or lists names and institutions.
import { FIRST, LAST } from './data.mjs';
import { cap, fill, paginate, paragraph, wrap } from './prose.mjs';

const FIELDS = {
  ml: {
    things: ['neural network', 'language model', 'graph neural network', 'transformer encoder', 'decision tree ensemble', 'kernel machine', 'variational autoencoder', 'recurrent network', 'policy network', 'embedding model'],
    tasks: ['image classification', 'named entity recognition', 'dependency parsing', 'machine translation', 'link prediction', 'anomaly detection', 'question answering', 'semantic role labelling', 'speech recognition', 'recommendation'],
    data: ['ImageNet', 'CoNLL-2003', 'the Penn Treebank', 'WMT14 English-German', 'SQuAD', 'OGB-arxiv', 'MNIST', 'CIFAR-10', 'a web-crawled corpus', 'the OntoNotes corpus'],
    metrics: ['accuracy', 'F1 score', 'BLEU', 'perplexity', 'AUC', 'mean reciprocal rank', 'top-1 error', 'labelled attachment score'],
    methods: ['stochastic gradient descent', 'contrastive pre-training', 'beam search', 'dropout regularisation', 'knowledge distillation', 'active learning', 'Bayesian optimisation', 'self-attention', 'conditional random fields', 'expectation maximisation'],
    venues: ['Advances in Neural Information Processing Systems', 'Proceedings of the International Conference on Machine Learning', 'Proceedings of the Conference on Computational Natural Language Learning', 'Journal of Machine Learning Research', 'Transactions of the Association for Computational Linguistics', 'Proceedings of ACL'],
    sections: ['Introduction', 'Related Work', 'Model', 'Training Procedure', 'Experimental Setup', 'Results', 'Analysis', 'Discussion', 'Conclusion'],
  },
  systems: {
    things: ['distributed file system', 'key-value store', 'consensus protocol', 'virtual machine monitor', 'scheduler', 'storage engine', 'query optimiser', 'stream processor', 'replication layer', 'garbage collector'],
    tasks: ['transaction processing', 'log-structured storage', 'fault tolerance', 'tail latency reduction', 'query evaluation over probabilistic data', 'crash recovery', 'load balancing', 'data provenance tracking', 'cache coherence', 'view maintenance'],
    data: ['the TPC-C benchmark', 'YCSB workloads', 'a production trace from a large web service', 'TPC-H at scale factor 100', 'a 64-node cluster', 'synthetic XML documents', 'the SPEC CPU suite'],
    metrics: ['throughput', 'p99 latency', 'recovery time', 'write amplification', 'speed-up', 'memory footprint', 'query response time'],
    methods: ['two-phase commit', 'Paxos', 'copy-on-write snapshots', 'lock-free queues', 'epoch-based reclamation', 'adaptive indexing', 'vectorised execution', 'Monte Carlo sampling', 'dynamic programming'],
    venues: ['Proceedings of the USENIX Symposium on Operating Systems Design and Implementation', 'Proceedings of the VLDB Endowment', 'ACM Transactions on Computer Systems', 'Proceedings of SIGMOD', 'IEEE Transactions on Knowledge and Data Engineering', 'Proceedings of EuroSys'],
    sections: ['Introduction', 'Background', 'Design', 'Implementation', 'Evaluation', 'Related Work', 'Limitations', 'Conclusion'],
  },
  hci: {
    things: ['interaction technique', 'visualisation tool', 'prototype', 'mobile application', 'tangible interface', 'conversational agent', 'annotation interface'],
    tasks: ['collaborative editing', 'older adults\' use of tablets', 'text entry on small screens', 'sensemaking', 'accessibility for blind users', 'remote collaboration', 'personal informatics'],
    data: ['a diary study with 24 participants', 'semi-structured interviews', 'a controlled lab study (N = 36)', 'a field deployment of eight weeks', 'an online survey of 412 respondents'],
    metrics: ['task completion time', 'error rate', 'SUS score', 'NASA-TLX workload', 'words per minute', 'preference ratings'],
    methods: ['thematic analysis', 'a within-subjects design', 'Wizard-of-Oz prototyping', 'participatory design workshops', 'mixed-effects models', 'affinity diagramming'],
    venues: ['Proceedings of the CHI Conference on Human Factors in Computing Systems', 'ACM Transactions on Computer-Human Interaction', 'AI Magazine', 'Proceedings of UIST', 'International Journal of Human-Computer Studies'],
    sections: ['Introduction', 'Related Work', 'Study Design', 'Participants', 'Findings', 'Design Implications', 'Discussion', 'Conclusion'],
  },
  physics: {
    things: ['lattice model', 'spin chain', 'quantum dot', 'superconducting film', 'scalar field', 'gauge theory', 'Bose-Einstein condensate', 'plasma', 'dark matter halo'],
    tasks: ['the critical exponents', 'the low-energy spectrum', 'the phase diagram', 'the renormalisation group flow', 'the transport coefficients', 'the decay width', 'the ground-state energy'],
    data: ['Monte Carlo simulations on lattices up to 128^3', 'measurements at 4.2 K', 'the one-loop approximation', 'exact diagonalisation for N = 24 sites', 'numerical integration of the field equations'],
    metrics: ['correlation length', 'specific heat', 'conductivity', 'magnetisation', 'cross section', 'susceptibility'],
    methods: ['perturbation theory', 'the Hartree-Fock approximation', 'a mean-field treatment', 'the density-matrix renormalisation group', 'finite-size scaling', 'a variational ansatz'],
    venues: ['Physical Review B', 'Physical Review Letters', 'Nuclear Physics B', 'Journal of Physics A: Mathematical and General', 'Physics Letters B'],
    sections: ['Introduction', 'The Model', 'Mean-Field Analysis', 'Numerical Results', 'Discussion', 'Summary'],
  },
  biology: {
    things: ['transcription factor', 'root meristem', 'auxin transporter', 'cell wall protein', 'gene family', 'chloroplast protease', 'signalling pathway', 'mutant line'],
    tasks: ['drought tolerance', 'lateral root formation', 'flowering time', 'seed germination', 'pathogen resistance', 'leaf senescence', 'nitrogen uptake'],
    data: ['Arabidopsis thaliana seedlings', 'rice cultivars grown in the field', 'RNA-seq of three biological replicates', 'T-DNA insertion lines', 'transgenic tobacco plants', 'maize inbred lines'],
    metrics: ['expression level', 'root length', 'survival rate', 'chlorophyll content', 'fold change', 'germination percentage'],
    methods: ['quantitative RT-PCR', 'confocal microscopy', 'CRISPR/Cas9 mutagenesis', 'yeast two-hybrid screening', 'chromatin immunoprecipitation', 'GUS staining', 'Western blotting'],
    venues: ['BMC Plant Biology', 'The Plant Cell', 'Plant Physiology', 'Journal of Experimental Botany', 'PLoS ONE', 'Frontiers in Plant Science'],
    sections: ['Background', 'Results', 'Discussion', 'Conclusions', 'Methods', 'Availability of data and materials'],
  },
  medicine: {
    things: ['screening instrument', 'intervention programme', 'cognitive test', 'care pathway', 'biomarker', 'treatment protocol'],
    tasks: ['depression in older adults', 'early detection of dementia', 'delirium in hospital inpatients', 'caregiver burden', 'falls in nursing homes', 'anxiety after stroke'],
    data: ['a cohort of 1,204 community-dwelling adults', 'a randomised controlled trial in 12 centres', 'a cross-sectional survey of care homes', 'routinely collected hospital records', 'a systematic review of 38 studies'],
    metrics: ['sensitivity', 'specificity', 'odds ratio', 'hazard ratio', 'effect size', 'prevalence', 'quality of life scores'],
    methods: ['logistic regression', 'Cox proportional hazards models', 'intention-to-treat analysis', 'multiple imputation', 'meta-analysis with random effects', 'structured clinical interviews'],
    venues: ['International Psychogeriatrics', 'BMC Psychiatry', 'Age and Ageing', 'The Lancet Psychiatry', 'BMJ Open', 'Journal of the American Geriatrics Society'],
    sections: ['Background', 'Methods', 'Participants', 'Measures', 'Statistical analysis', 'Results', 'Discussion', 'Strengths and limitations', 'Conclusions'],
  },
};

const UNIVERSITIES = ['University of Edinburgh', 'Carnegie Mellon University', 'ETH Zürich', 'Universität des Saarlandes', 'University of Texas at Austin', 'Tsinghua University', 'University of Warsaw', 'Université Paris-Saclay', 'University of Melbourne', 'Max Planck Institute for Informatics', 'Stanford University', 'University of Cambridge', 'KU Leuven', 'Seoul National University', 'University of Toronto', 'Indian Institute of Science', 'University of Wageningen', 'Karolinska Institutet', 'Universidad de Chile', 'Weizmann Institute of Science'];
const DEPTS = ['Department of Computer Science', 'School of Informatics', 'Department of Physics', 'Institute of Plant Sciences', 'Department of Psychiatry', 'Laboratory for Computer Science', 'Faculty of Medicine', 'Department of Electrical Engineering'];

const SENTENCES = {
  intro: [
    '{task} has received considerable attention in recent years {cite}.',
    'A central difficulty in {task} is that the {thing} must cope with noisy and incomplete input {cite}.',
    'Existing approaches rely on {method}, which scales poorly as the problem grows {cite}.',
    'In this paper we propose a new {thing} for {task} and show that it outperforms previous work on {data}.',
    'Our contributions are threefold: we introduce a {thing}, we analyse its properties, and we evaluate it empirically.',
    'Despite this progress, little is known about how {method} interacts with {task} {cite}.',
    'The remainder of this paper is organised as follows: Section 2 reviews related work, Section 3 describes our approach, and Section 4 reports experiments.',
    'We address this gap by combining {method} with a {thing}.',
    'Prior studies {cite} have reported mixed results, partly because of differences in {metric} definitions.',
  ],
  body: [
    'We use {method} to estimate the parameters of the {thing}, following {cite}.',
    'Table {n} summarises the {metric} obtained on {data}.',
    'As shown in Figure {n}, the {metric} improves steadily as the number of {unit} increases.',
    'The {thing} is evaluated on {data} using {metric} as the primary measure.',
    'This result is consistent with earlier observations {cite} but contradicts the analysis in {cite}.',
    'We hypothesise that the gain comes from {method} rather than from the larger {thing}.',
    'All experiments were repeated five times with different random seeds and we report the mean and standard deviation.',
    'In contrast to {cite}, we do not assume that the {thing} is known in advance.',
    'Formally, let x denote the input and y the output; the objective is given in Equation ({n}).',
    'The difference between the two conditions was statistically significant (p < 0.0{n}).',
    'Compared with the baseline, our {thing} reduces the error by {pct} on {data}.',
    'We further examined {task} in a subset of {n}0 cases selected at random.',
    'Parameters were tuned on a held-out development set and then fixed for all runs.',
    'Note that {method} requires O(n log n) time in the worst case, which is acceptable in practice.',
    'The second experiment investigates how sensitive the {thing} is to the choice of {method}.',
    'These findings suggest that {task} depends strongly on the {metric} of the underlying {thing}.',
    'A similar trend was reported for {task} by {author} et al. {cite}.',
  ],
  conclusion: [
    'We have presented a {thing} for {task} and demonstrated its effectiveness on {data}.',
    'Future work will extend the {thing} to other settings and study {method} in more depth.',
    'Our results indicate that {method} is a promising direction for {task}.',
    'The main limitation of this study is the reliance on {data}, which may not generalise.',
  ],
  abstract: [
    'We study {task} and propose a {thing} based on {method}.',
    'Experiments on {data} show improvements in {metric} of up to {pct} over strong baselines.',
    'We also provide a theoretical analysis of the convergence of {method}.',
    'Our findings have implications for the design of future {thing}s.',
    'Background: {task} is common but often unrecognised.',
    'Methods: we analysed {data} using {method}.',
    'Results: the {metric} was significantly higher in the intervention group.',
    'Conclusions: {method} may help clinicians and researchers working on {task}.',
    'This paper describes a {thing} that makes {task} practical at scale.',
  ],
};

function author(rng) {
  return rng.chance(0.5) ? `${rng.pick(FIRST)} ${rng.pick(LAST)}` : `${rng.pick(FIRST)[0]}. ${rng.pick(FIRST)[0]}. ${rng.pick(LAST)}`;
}

function citeStyle(rng) {
  return rng.pick(['num', 'num', 'author']);
}

function citation(rng, style, n) {
  if (style === 'num') {
    const k = rng.int(1, n);
    return rng.chance(0.7) ? `[${k}]` : `[${k}, ${Math.min(n, k + rng.int(1, 5))}]`;
  }
  const a = rng.pick(LAST);
  const y = rng.int(1985, 2023);
  return rng.pick([`(${a} et al., ${y})`, `(${a}, ${y})`, `(${a} and ${rng.pick(LAST)}, ${y})`, `(${a} et al. ${y}; ${rng.pick(LAST)} ${y + 1})`]);
}

function reference(rng, f, style, i) {
  const authors = Array.from({ length: rng.int(1, 4) }, () => `${rng.pick(LAST)}, ${rng.pick(FIRST)[0]}.`);
  const y = rng.int(1978, 2024);
  const title = cap(fill(rng, rng.pick(['{method} for {task}', 'On the {metric} of {thing}s', 'A {thing} approach to {task}', 'Learning {thing}s with {method}', 'Improved {task} using {method}', '{task}: a survey']), f));
  const where = rng.pick(f.venues);
  const tail = rng.pick([`${rng.int(1, 60)}(${rng.int(1, 12)}):${rng.int(1, 900)}–${rng.int(901, 1400)}`, `pp. ${rng.int(1, 500)}–${rng.int(501, 900)}`, `vol. ${rng.int(1, 40)}`, `doi:10.${rng.int(1000, 9999)}/${rng.letters(3).toLowerCase()}.${y}.${rng.digits(4)}`, 'arXiv preprint']);
  const body = `${authors.join(', ')} ${rng.chance(0.5) ? `(${y}). ${title}.` : `${title}. `} ${where}, ${tail}${rng.chance(0.5) ? '' : `, ${y}`}.`;
  return style === 'num' ? `[${i}] ${body}` : body;
}

function equation(rng, k) {
  const lhs = rng.pick(['L(θ)', 'E[x]', 'H', 'p(y | x)', 'f(x)', 'Z', 'ρ(r, t)', 'ΔG', 'R²']);
  const rhs = rng.pick(['Σ_i log p(y_i | x_i; θ) + λ‖θ‖²', '−J Σ_<ij> S_i · S_j − h Σ_i S_i', '∫ dx e^{−βV(x)}', 'softmax(W h_t + b)', 'α ∇²φ − m² φ', 'argmax_y score(x, y)', '(1/N) Σ_n (y_n − ŷ_n)²', 'k_B T ln(Z)']);
  return `${lhs} = ${rhs}    (${k})`;
}

function figureCaption(rng, f, k) {
  return fill(rng, `{Figure|Fig.|Table} ${k}: {cap}`, {
    ...f,
    cap: (r) => cap(fill(r, rng.pick(['{metric} as a function of the number of {unit} on {data}.', 'Overview of the proposed {thing}.', 'Comparison of {method} and the baseline for {task}.', 'Distribution of {metric} across conditions.', 'Characteristics of the study sample.']), f)),
  });
}

function tableRows(rng, f) {
  const cols = rng.int(3, 5);
  const head = ['Method', ...rng.sample(f.metrics, cols - 1).map(cap)];
  const rows = [head.join('  ')];
  for (let i = 0; i < rng.int(3, 7); i++) {
    rows.push([rng.pick(['Baseline', 'Ours', `${rng.pick(LAST)} et al.`, 'Full model', '− ablation', 'Random', 'Oracle']), ...Array.from({ length: cols - 1 }, () => (rng.float(0, 100)).toFixed(rng.int(1, 2)))].join('  '));
  }
  return rows.join('\n');
}

function heading(rng, k, name, numbered) {
  if (!numbered) return rng.chance(0.5) ? name.toUpperCase() : name;
  return rng.pick([`${k} ${name}`, `${k}. ${name}`, `${['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'][k - 1] ?? k}. ${name.toUpperCase()}`]);
}

export function generatePaper(rng) {
  const f = rng.pick(Object.values(FIELDS));
  const style = citeStyle(rng);
  const nRefs = rng.int(12, 45);
  const slots = { ...f, thing: f.things, task: f.tasks, metric: f.metrics, method: f.methods, data: f.data, author: LAST, unit: ['iterations', 'training examples', 'nodes', 'samples', 'participants', 'layers'], n: () => String(rng.int(1, 9)), pct: () => `${rng.int(2, 40)}%`, cite: () => citation(rng, style, nRefs) };
  const width = rng.pick([60, 75, 90, 110]);
  const hyph = rng.chance(0.6) ? 0.15 : 0;
  const title = cap(fill(rng, rng.pick(['{method} for {task}', 'Towards robust {task} with a {thing}', 'A {thing} for {task}', 'Scaling {task}: lessons from {data}', 'On {metric} in {task}', '{task} revisited: {method} and beyond', 'Efficient {task} using {method}']), slots));
  const nAuthors = rng.int(1, 6);
  const authors = Array.from({ length: nAuthors }, () => author(rng));
  const affs = rng.sample(UNIVERSITIES, rng.int(1, 3)).map((u, i) => `${i + 1} ${rng.pick(DEPTS)}, ${u}`);
  const front = [];
  if (rng.chance(0.5)) front.push(rng.pick([`${rng.pick(f.venues)}, Vol. ${rng.int(1, 60)}, No. ${rng.int(1, 12)}, ${rng.int(1994, 2023)}`, `arXiv:${rng.int(10, 24)}${String(rng.int(1, 12)).padStart(2, '0')}.${rng.digits(5)}v${rng.int(1, 3)} [${rng.pick(['cs.LG', 'cs.CL', 'cs.DB', 'cond-mat.str-el', 'hep-th', 'q-bio.GN'])}] ${rng.int(1, 28)} ${rng.pick(['Jan', 'Mar', 'Jun', 'Sep', 'Nov'])} ${rng.int(1994, 2024)}`, `Proceedings of the ${rng.int(2, 45)}th ${rng.pick(['Annual Meeting', 'International Conference', 'Symposium'])}, pages ${rng.int(1, 900)}–${rng.int(901, 1200)}`, `RESEARCH ARTICLE Open Access`]));
  front.push(title, authors.map((a, i) => `${a}${rng.chance(0.6) ? (i % affs.length) + 1 : ''}`).join(rng.pick([', ', '  ', '\n'])));
  front.push(...affs);
  if (rng.chance(0.6)) front.push(authors.slice(0, 2).map((a) => `${a.split(' ').pop().toLowerCase()}@${rng.pick(['cs', 'inf', 'phys', 'med'])}.${rng.pick(['ed.ac.uk', 'cmu.edu', 'ethz.ch', 'utexas.edu', 'uw.edu.pl', 'unimelb.edu.au'])}`).join(', '));
  const abstract = paragraph(rng, SENTENCES.abstract, slots, rng.int(4, 8));
  const parts = [front.join('\n'), `${rng.pick(['Abstract', 'ABSTRACT', 'Abstract.', 'Summary'])}\n${wrap(rng, abstract, width, hyph)}`];
  if (rng.chance(0.6)) parts.push(`${rng.pick(['Keywords', 'Index Terms', 'Key words', 'Categories and Subject Descriptors'])}: ${rng.sample([...f.tasks, ...f.methods, ...f.things], rng.int(3, 6)).join(rng.pick(['; ', ', ', ' · ']))}`);
  const numbered = rng.chance(0.75);
  const nSections = Math.min(f.sections.length, rng.int(5, f.sections.length));
  let eq = 1;
  let fig = 1;
  // Long papers: several paragraphs per section, so the whole text is 15k–70k characters.
  const perSection = rng.int(3, 9);
  f.sections.slice(0, nSections).forEach((name, si) => {
    const block = [heading(rng, si + 1, name, numbered)];
    const kind = si === 0 ? 'intro' : si === nSections - 1 ? 'conclusion' : 'body';
    const paras = kind === 'conclusion' ? rng.int(1, 3) : perSection;
    for (let p = 0; p < paras; p++) {
      if (kind === 'body' && p > 0 && rng.chance(0.25)) block.push(`${si + 1}.${p} ${cap(fill(rng, rng.pick(['{method}', 'Setup', '{metric}', 'Ablation', 'Data', 'Baselines', 'Error analysis']), slots))}`);
      block.push(wrap(rng, paragraph(rng, SENTENCES[kind], slots, rng.int(4, 9)), width, hyph));
      if (kind === 'body' && rng.chance(0.2)) block.push(equation(rng, eq++));
      if (kind === 'body' && rng.chance(0.15)) block.push(tableRows(rng, f));
      if (kind === 'body' && rng.chance(0.25)) block.push(figureCaption(rng, f, fig++));
    }
    parts.push(block.join('\n'));
  });
  if (rng.chance(0.6)) parts.push(`${rng.pick(['Acknowledgments', 'Acknowledgements', 'ACKNOWLEDGMENTS'])}\n${wrap(rng, `We thank ${author(rng)} and ${author(rng)} for helpful discussions. This work was supported in part by ${rng.pick(['the National Science Foundation under grant', 'the European Research Council, grant', 'the Deutsche Forschungsgemeinschaft, project', 'a Wellcome Trust award'])} ${rng.letters(2)}-${rng.digits(7)}.`, width)}`);
  const refs = Array.from({ length: nRefs }, (_, i) => wrap(rng, reference(rng, slots, style, i + 1), width));
  parts.push(`${rng.pick(['References', 'REFERENCES', 'Bibliography', 'Literature Cited'])}\n${refs.join('\n')}`);
  const body = parts.join('\n\n');
  const running = rng.pick([title.toUpperCase().slice(0, 50), `${authors[0].split(' ').pop()} et al.`, rng.pick(f.venues)]);
  return paginate(rng, body, rng.int(45, 70), (page, total) => ({
    top: page > 1 && rng.chance(0.7) ? `${running}${rng.chance(0.5) ? `    ${page}` : ''}` : null,
    bottom: rng.chance(0.5) ? `${page}` : rng.chance(0.3) ? `Page ${page} of ${total}` : null,
  }));
}
