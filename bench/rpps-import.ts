/**
 * Imports a generated RPPS extract the size of the real one and reports time and peak memory.
 * Usage: node bench/rpps-import.ts [lines]   (default 2,000,000 data rows)
 *
 * The import runs in a child process of its own, as the import command does, so that the memory
 * used to generate the file does not count against it.
 */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { importRppsFile } from '../apps/api/src/modules/rpps/rpps-extract.ts';

const HEADER = [
  "Type d'identifiant PP",
  'Identifiant PP',
  'Identification nationale PP',
  "Code civilité d'exercice",
  "Libellé civilité d'exercice",
  'Code civilité',
  'Libellé civilité',
  "Nom d'exercice",
  "Prénom d'exercice",
  'Code profession',
  'Libellé profession',
  'Code catégorie professionnelle',
  'Libellé catégorie professionnelle',
  'Code type savoir-faire',
  'Libellé type savoir-faire',
  'Code savoir-faire',
  'Libellé savoir-faire',
  'Code mode exercice',
  'Libellé mode exercice',
  'Numéro SIRET site',
  'Numéro SIREN site',
  'Numéro FINESS site',
  'Numéro FINESS établissement juridique',
  'Identifiant technique de la structure',
  'Raison sociale site',
  'Enseigne commerciale site',
  'Complément destinataire (coord. structure)',
  'Complément point géographique (coord. structure)',
  'Numéro Voie (coord. structure)',
  'Indice répétition voie (coord. structure)',
  'Code type de voie (coord. structure)',
  'Libellé type de voie (coord. structure)',
  'Libellé Voie (coord. structure)',
  'Mention distribution (coord. structure)',
  'Bureau cedex (coord. structure)',
  'Code postal (coord. structure)',
  'Code commune (coord. structure)',
  'Libellé commune (coord. structure)',
  'Code pays (coord. structure)',
  'Libellé pays (coord. structure)',
  'Téléphone (coord. structure)',
  'Téléphone 2 (coord. structure)',
  'Télécopie (coord. structure)',
  'Adresse e-mail (coord. structure)',
  'Code Département (structure)',
  'Libellé Département (structure)',
  'Ancien identifiant de la structure',
  "Autorité d'enregistrement",
  "Code secteur d'activité",
  "Libellé secteur d'activité",
  'Code section tableau pharmaciens',
  'Libellé section tableau pharmaciens',
  'Code rôle',
  'Libellé rôle',
  'Code genre activité',
  'Libellé genre activité',
];

const LAST_NAMES = ['LEFÈVRE-DURAND', 'MARCHAND', 'DE LA VALLIÈRE', 'QUÉRÉ', 'CHÂTEAUNEUF', "N'DIAYE", 'ROUX', 'BÉRANGER'];
const FIRST_NAMES = ['Hélène', 'Jean-François', 'Éloïse', 'Loïc', 'Rémi', 'Anaïs', 'Théo', 'Maëlle'];
const SPECIALTIES = [
  ['SM12', 'Chirurgie urologique'],
  ['SM14', 'Chirurgie viscérale et digestive'],
  ['SM20', 'Gynécologie-obstétrique'],
  ['SM53', 'Spécialiste en Médecine Générale'],
] as const;
const SITES = [
  "F690999011|HOPITAL EDOUARD HERRIOT||HOPITAL EDOUARD HERRIOT||5||PL|Place|D'ARSONVAL||69003 LYON|69003|69383|Lyon 3e Arrondissement|99100|France|0465710101||||69|Rhône|1690999011",
  'F330999011|HOPITAL PELLEGRIN||HOPITAL PELLEGRIN||||PL|Place|AMELIE RABA LEON||33076 BORDEAUX CEDEX|33076|33063|Bordeaux|99100|France|0536490101||||33|Gironde|1330999011',
  'R99999902100017|CABINET MEDICAL DES BATIGNOLLES||CABINET MEDICAL DES BATIGNOLLES||3||R|Rue|DES MOINES||75017 PARIS|75017|75117|Paris 17e Arrondissement|99100|France|0199000707||||75|Paris|399999902100017',
];

function activityRow(personIndex: number, activity: number): string {
  const adeli = personIndex % 40 === 39;
  const id = adeli ? String(690000000 + personIndex) : String(10_000_000_000 + personIndex);
  const last = LAST_NAMES[personIndex % LAST_NAMES.length];
  const first = FIRST_NAMES[(personIndex >> 3) % FIRST_NAMES.length];
  const [sfCode, sfLabel] = SPECIALTIES[personIndex % SPECIALTIES.length] ?? SPECIALTIES[0];
  const expertise = adeli
    ? '||||'
    : activity === 0 && personIndex % 5 === 0
      ? 'DSM|DESC non qualifiant|DSM01|Andrologie'
      : `S|Spécialité ordinale|${sfCode}|${sfLabel}`;
  const profession = adeli ? '93|Psychologue' : '10|Médecin';
  const mode = activity === 0 ? 'S|Salarié' : 'L|Libéral';
  const site = SITES[(personIndex + activity) % SITES.length];
  return (
    `${adeli ? '0' : '8'}|${id}|${adeli ? '0' : '8'}${id}|DR|Docteur|M|Monsieur|${last}|${first}|${profession}|C|Civil|` +
    `${expertise}|${mode}||||${site}|CNOM/CNOM/CNOM|SA01|Etablissement public de santé|||||GENR01|Activité de soin et de pharmacie|\n`
  );
}

/** Writes `lines` activity rows, one to four per person, honouring back-pressure. */
async function writeExtract(path: string, lines: number): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`${HEADER.join('|')}|\n`);
  let written = 0;
  for (let person = 0; written < lines; person++) {
    const activities = Math.min(1 + (person % 4), lines - written);
    for (let a = 0; a < activities; a++) await write(activityRow(person, a));
    written += activities;
  }
  out.end();
  await once(out, 'finish');
}

interface ImportResult {
  rows: number;
  people: number;
  seconds: number;
  peakRssMb: number;
}

/** Runs in the child: imports with a no-op upsert while sampling the resident set size. */
async function measureImport(path: string): Promise<ImportResult> {
  let peakRss = process.memoryUsage().rss;
  const sample = () => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  };
  const sampler = setInterval(sample, 20);
  const started = performance.now();
  const { rows, people } = await importRppsFile(path, async () => {
    sample();
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  // The kernel's high-water mark catches a peak that fell between two samples.
  peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  return { rows, people, seconds, peakRssMb: peakRss / 1024 / 1024 };
}

if (process.argv[2] === '--import') {
  const path = process.argv[3];
  if (path === undefined) throw new Error('usage: node bench/rpps-import.ts --import <extract>');
  console.log(JSON.stringify(await measureImport(path)));
} else {
  const lines = Number(process.argv[2] ?? 2_000_000);
  const dir = await mkdtemp(join(tmpdir(), 'sutura-rpps-bench-'));
  try {
    const path = join(dir, 'PS_LibreAcces_Personne_activite_bench.txt');
    await writeExtract(path, lines);
    const sizeMb = (await stat(path)).size / 1024 / 1024;
    const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), '--import', path]);
    const result = JSON.parse(stdout) as ImportResult;
    console.log(`(extract of ${sizeMb.toFixed(0)} MB)`);
    console.log(
      `rpps import: ${result.rows} rows, ${result.people} people in ${result.seconds.toFixed(1)} s, peak RSS ${result.peakRssMb.toFixed(0)} MB`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
