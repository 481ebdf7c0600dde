import type { OrganIcon } from '@sutura/domain/vocabularies';

export interface LocalizedName {
  fr: string;
  en: string;
}

export interface SpecialtySeed {
  code: string;
  name: LocalizedName;
}

export interface OrganSeed {
  code: string;
  name: LocalizedName;
  icon: OrganIcon;
}

export interface SurgeryStepSeed {
  code: string;
  name: LocalizedName;
}

export interface SurgerySeed {
  code: string;
  name: LocalizedName;
  /** Code of one of ORGANS, or null when no organ icon fits. */
  organ: string | null;
  /** In operative order; the position of a step is its index. */
  steps: readonly SurgeryStepSeed[];
}

/** Codes are stable: the seed upserts by code, so renaming a code creates a new row. */
export const SPECIALTIES: readonly SpecialtySeed[] = [
  { code: 'urology', name: { fr: 'Urologie', en: 'Urology' } },
  {
    code: 'visceral_digestive_surgery',
    name: { fr: 'Chirurgie viscérale et digestive', en: 'General and digestive surgery' },
  },
  { code: 'gynaecology_obstetrics', name: { fr: 'Gynécologie-obstétrique', en: 'Obstetrics and gynaecology' } },
  { code: 'thoracic_surgery', name: { fr: 'Chirurgie thoracique', en: 'Thoracic surgery' } },
  { code: 'cardiac_surgery', name: { fr: 'Chirurgie cardiaque', en: 'Cardiac surgery' } },
  { code: 'vascular_surgery', name: { fr: 'Chirurgie vasculaire', en: 'Vascular surgery' } },
  {
    code: 'ent_head_neck_surgery',
    name: {
      fr: 'Oto-rhino-laryngologie – chirurgie cervico-faciale',
      en: 'Otorhinolaryngology – head and neck surgery',
    },
  },
  { code: 'paediatric_surgery', name: { fr: 'Chirurgie pédiatrique', en: 'Paediatric surgery' } },
  {
    code: 'hepatobiliary_transplant_surgery',
    name: { fr: 'Chirurgie hépato-biliaire et transplantation', en: 'Hepatobiliary and transplant surgery' },
  },
  { code: 'endocrine_surgery', name: { fr: 'Chirurgie endocrinienne', en: 'Endocrine surgery' } },
  {
    code: 'orthopaedic_surgery',
    name: { fr: 'Chirurgie orthopédique et traumatologique', en: 'Orthopaedic and trauma surgery' },
  },
  {
    code: 'plastic_surgery',
    name: { fr: 'Chirurgie plastique, reconstructrice et esthétique', en: 'Plastic, reconstructive and aesthetic surgery' },
  },
  { code: 'neurosurgery', name: { fr: 'Neurochirurgie', en: 'Neurosurgery' } },
  { code: 'other', name: { fr: 'Autre', en: 'Other' } },
];

/** One organ per icon of SPEC §3; lymphadenectomy is a procedure area shown with an organ icon. */
export const ORGANS: readonly OrganSeed[] = [
  { code: 'bladder', name: { fr: 'Vessie', en: 'Bladder' }, icon: 'bladder' },
  { code: 'kidney', name: { fr: 'Rein', en: 'Kidney' }, icon: 'kidney' },
  { code: 'lymphadenectomy', name: { fr: 'Curage ganglionnaire', en: 'Lymphadenectomy' }, icon: 'lymphadenectomy' },
  { code: 'prostate', name: { fr: 'Prostate', en: 'Prostate' }, icon: 'prostate' },
  { code: 'adrenal_gland', name: { fr: 'Glande surrénale', en: 'Adrenal gland' }, icon: 'adrenalGland' },
  { code: 'ureter', name: { fr: 'Uretère', en: 'Ureter' }, icon: 'ureter' },
  { code: 'colon', name: { fr: 'Côlon', en: 'Colon' }, icon: 'colon' },
  { code: 'gallbladder', name: { fr: 'Vésicule biliaire', en: 'Gallbladder' }, icon: 'gallbladder' },
];

const step = (code: string, fr: string, en: string): SurgeryStepSeed => ({ code, name: { fr, en } });

/** The opening step of every laparoscopic or robotic procedure shares one code. */
const trocarPlacement = (fr: string, en: string) => step('trocar_placement', fr, en);

export const SURGERIES: readonly SurgerySeed[] = [
  {
    code: 'laparotomy',
    name: { fr: 'Laparotomie', en: 'Laparotomy' },
    organ: null,
    steps: [
      step('positioning_draping', 'Installation du patient et champage', 'Patient positioning and draping'),
      step('skin_incision', 'Incision cutanée médiane', 'Midline skin incision'),
      step('peritoneal_opening', 'Ouverture de la ligne blanche et du péritoine', 'Opening of the linea alba and peritoneum'),
      step('wound_protection', "Protection des berges et mise en place de l'écarteur", 'Wound-edge protection and retractor placement'),
      step('exploration', 'Exploration de la cavité abdominale', 'Exploration of the abdominal cavity'),
      step('lavage_drainage', 'Toilette péritonéale et drainage', 'Peritoneal lavage and drainage'),
      step('fascial_closure', 'Fermeture aponévrotique', 'Fascial closure'),
      step('skin_closure', 'Fermeture cutanée et pansement', 'Skin closure and dressing'),
    ],
  },
  {
    code: 'colectomy',
    name: { fr: 'Colectomie', en: 'Colectomy' },
    organ: 'colon',
    steps: [
      trocarPlacement(
        'Installation, création du pneumopéritoine et mise en place des trocarts',
        'Positioning, pneumoperitoneum and trocar placement',
      ),
      step('exploration', 'Exploration de la cavité abdominale', 'Exploration of the abdominal cavity'),
      step(
        'vascular_pedicle_ligation',
        'Dissection et ligature du pédicule vasculaire à son origine',
        'Dissection and high ligation of the vascular pedicle',
      ),
      step(
        'medial_to_lateral_mobilisation',
        'Décollement du mésocôlon par abord médio-latéral',
        'Medial-to-lateral mobilisation of the mesocolon',
      ),
      step(
        'lateral_mobilisation',
        "Décollement pariéto-colique et mobilisation de l'angle colique",
        'Lateral parietocolic mobilisation and mobilisation of the colic flexure',
      ),
      step(
        'mesocolon_division_transection',
        'Section du mésocôlon et section colique',
        'Division of the mesocolon and colonic transection',
      ),
      step(
        'specimen_extraction',
        'Extraction de la pièce par mini-laparotomie protégée',
        'Specimen extraction through a protected mini-laparotomy',
      ),
      step('anastomosis', 'Anastomose colique mécanique ou manuelle', 'Stapled or hand-sewn colonic anastomosis'),
      step('anastomosis_check_closure', "Contrôle de l'anastomose, hémostase et fermeture", 'Anastomotic check, haemostasis and closure'),
    ],
  },
  {
    code: 'proctectomy',
    name: { fr: 'Proctectomie', en: 'Proctectomy' },
    organ: null,
    steps: [
      trocarPlacement(
        'Installation, création du pneumopéritoine et mise en place des trocarts',
        'Positioning, pneumoperitoneum and trocar placement',
      ),
      step('ima_ligation', "Ligature de l'artère mésentérique inférieure à son origine", 'High ligation of the inferior mesenteric artery'),
      step(
        'left_mesocolon_mobilisation',
        'Décollement médio-latéral du mésocôlon gauche et section de la veine mésentérique inférieure',
        'Medial-to-lateral mobilisation of the left mesocolon and division of the inferior mesenteric vein',
      ),
      step('splenic_flexure_mobilisation', "Mobilisation de l'angle colique gauche", 'Splenic flexure mobilisation'),
      step(
        'tme_posterior',
        'Exérèse totale du mésorectum : dissection postérieure avec préservation des nerfs hypogastriques',
        'Total mesorectal excision: posterior dissection preserving the hypogastric nerves',
      ),
      step(
        'tme_lateral_anterior',
        'Dissection latérale et antérieure du mésorectum (fascia de Denonvilliers)',
        "Lateral and anterior mesorectal dissection (Denonvilliers' fascia)",
      ),
      step('distal_rectal_transection', "Section rectale distale à l'agrafeuse", 'Stapled distal rectal transection'),
      step(
        'specimen_extraction',
        'Extraction de la pièce et section colique proximale',
        'Specimen extraction and proximal colonic division',
      ),
      step('colorectal_anastomosis', 'Anastomose colorectale ou colo-anale', 'Colorectal or coloanal anastomosis'),
      step(
        'leak_test_ileostomy_closure',
        "Test d'étanchéité, iléostomie de protection et fermeture",
        'Leak test, diverting ileostomy and closure',
      ),
    ],
  },
  {
    code: 'cholecystectomy',
    name: { fr: 'Cholécystectomie', en: 'Cholecystectomy' },
    organ: 'gallbladder',
    steps: [
      trocarPlacement('Installation et création du pneumopéritoine', 'Trocar placement and pneumoperitoneum'),
      step('calot_exposure', 'Exposition du triangle de Calot', "Exposure of Calot's triangle"),
      step(
        'calot_dissection_cvs',
        'Dissection du triangle de Calot et vue critique de sécurité',
        "Dissection of Calot's triangle and critical view of safety",
      ),
      step('cystic_duct_division', 'Clipage et section du canal cystique', 'Clipping and division of the cystic duct'),
      step('cystic_artery_division', "Clipage et section de l'artère cystique", 'Clipping and division of the cystic artery'),
      step('gallbladder_bed_dissection', 'Cholécystectomie rétrograde du lit vésiculaire', 'Gallbladder dissection from the liver bed'),
      step('haemostasis_extraction', 'Hémostase et extraction', 'Haemostasis and extraction'),
      step('closure', 'Fermeture', 'Closure'),
    ],
  },
  {
    code: 'vascular_surgery',
    name: { fr: 'Chirurgie vasculaire', en: 'Vascular surgery' },
    organ: null,
    steps: [
      step('positioning_draping', 'Installation du patient et champage', 'Patient positioning and draping'),
      step('arterial_exposure', "Abord et exposition de l'artère", 'Arterial exposure'),
      step('vascular_control', "Contrôle vasculaire d'amont et d'aval sur lacs", 'Proximal and distal vascular control with vessel loops'),
      step('heparin_clamping', 'Héparinisation et clampage', 'Systemic heparinisation and clamping'),
      step(
        'arteriotomy_repair',
        'Artériotomie et geste artériel (endartériectomie ou pontage)',
        'Arteriotomy and arterial repair (endarterectomy or bypass)',
      ),
      step('anastomosis_patch', 'Anastomose ou fermeture par patch', 'Anastomosis or patch closure'),
      step('flushing_declamping', "Purge, déclampage et contrôle de l'hémostase", 'Flushing, declamping and haemostasis check'),
      step('completion_control', 'Contrôle du résultat par doppler ou artériographie', 'Completion control by Doppler or angiography'),
      step('layered_closure', 'Fermeture plan par plan', 'Layered closure'),
    ],
  },
  {
    code: 'kidney_transplantation',
    name: { fr: 'Transplantation rénale', en: 'Kidney transplantation' },
    organ: 'kidney',
    steps: [
      step('back_table', 'Préparation du greffon sur table (back-table)', 'Back-table graft preparation'),
      step(
        'iliac_fossa_exposure',
        'Incision iliaque et abord extrapéritonéal de la fosse iliaque',
        'Iliac (Gibson) incision and extraperitoneal exposure of the iliac fossa',
      ),
      step('iliac_vessel_dissection', 'Dissection des vaisseaux iliaques externes', 'Dissection of the external iliac vessels'),
      step(
        'venous_anastomosis',
        'Anastomose veineuse termino-latérale sur la veine iliaque externe',
        'End-to-side renal vein to external iliac vein anastomosis',
      ),
      step(
        'arterial_anastomosis',
        "Anastomose artérielle termino-latérale sur l'artère iliaque externe",
        'End-to-side renal artery to external iliac artery anastomosis',
      ),
      step('reperfusion', 'Déclampage et reperfusion du greffon', 'Declamping and graft reperfusion'),
      step('ureteroneocystostomy', 'Réimplantation urétéro-vésicale sur sonde double J', 'Ureteroneocystostomy over a double-J stent'),
      step(
        'haemostasis_drainage_closure',
        'Hémostase, drainage et fermeture pariétale',
        'Haemostasis, drainage and abdominal wall closure',
      ),
    ],
  },
  {
    code: 'hepatic_transplantation',
    name: { fr: 'Transplantation hépatique', en: 'Liver transplantation' },
    organ: null,
    steps: [
      step('back_table', 'Préparation du greffon sur table (back-table)', 'Back-table graft preparation'),
      step('incision_exposure', 'Incision bi-sous-costale et exposition', 'Bilateral subcostal incision and exposure'),
      step(
        'hilar_dissection',
        'Dissection du pédicule hépatique (artère hépatique, voie biliaire principale, veine porte)',
        'Hilar dissection (hepatic artery, common bile duct, portal vein)',
      ),
      step(
        'recipient_hepatectomy',
        'Hépatectomie totale avec conservation de la veine cave inférieure',
        'Total recipient hepatectomy with preservation of the inferior vena cava (piggyback)',
      ),
      step('caval_anastomosis', 'Anastomose cave', 'Caval anastomosis'),
      step('portal_anastomosis', 'Anastomose porte', 'Portal vein anastomosis'),
      step('reperfusion', 'Déclampage et reperfusion du greffon', 'Declamping and graft reperfusion'),
      step('arterial_anastomosis', 'Anastomose artérielle hépatique', 'Hepatic artery anastomosis'),
      step('biliary_anastomosis', 'Anastomose biliaire cholédoco-cholédocienne', 'Duct-to-duct biliary anastomosis'),
      step('haemostasis_drainage_closure', 'Hémostase, drainage et fermeture', 'Haemostasis, drainage and closure'),
    ],
  },
  {
    code: 'upper_adenomectomy',
    name: { fr: 'Adénomectomie voie haute', en: 'Transvesical prostate adenomectomy' },
    organ: 'prostate',
    steps: [
      step(
        'positioning_catheterisation',
        'Installation, sondage et remplissage vésical',
        'Positioning, catheterisation and bladder filling',
      ),
      step(
        'retzius_access',
        "Incision sous-ombilicale (ou mise en place des trocarts) et abord de l'espace de Retzius",
        'Lower midline incision (or trocar placement) and access to the space of Retzius',
      ),
      step('cystotomy', 'Cystotomie antérieure', 'Anterior cystotomy'),
      step(
        'bladder_neck_exposure',
        'Exposition du col vésical et repérage des méats urétéraux',
        'Exposure of the bladder neck and identification of the ureteric orifices',
      ),
      step(
        'mucosal_incision',
        'Incision circonférentielle de la muqueuse cervicale',
        'Circumferential incision of the bladder-neck mucosa',
      ),
      step(
        'adenoma_enucleation',
        "Énucléation de l'adénome dans le plan de la capsule chirurgicale",
        'Enucleation of the adenoma in the surgical capsule plane',
      ),
      step(
        'fossa_haemostasis_trigonisation',
        'Hémostase de la loge prostatique et trigonisation',
        'Haemostasis of the prostatic fossa and trigonisation',
      ),
      step(
        'catheter_bladder_closure',
        "Mise en place d'une sonde à irrigation et fermeture vésicale",
        'Three-way irrigation catheter placement and bladder closure',
      ),
      step('drainage_closure', 'Drainage et fermeture pariétale', 'Drainage and abdominal wall closure'),
    ],
  },
  {
    code: 'prostate_enucleation',
    name: { fr: 'Énucléation prostatique', en: 'Prostate enucleation' },
    organ: 'prostate',
    steps: [
      step(
        'positioning_cystoscopy',
        'Installation en position de lithotomie et urétrocystoscopie',
        'Lithotomy positioning and urethrocystoscopy',
      ),
      step(
        'landmarks',
        'Repérage des méats urétéraux, du col vésical et du veru montanum',
        'Identification of the ureteric orifices, bladder neck and verumontanum',
      ),
      step('apical_incision', 'Incision apicale en amont du veru montanum', 'Apical incision proximal to the verumontanum'),
      step(
        'median_lobe_enucleation',
        'Incisions à 5 h et 7 h et énucléation du lobe médian',
        "Incisions at 5 and 7 o'clock and median lobe enucleation",
      ),
      step('lateral_lobe_enucleation', 'Énucléation des lobes latéraux', 'Lateral lobe enucleation'),
      step('anterior_commissure_release', 'Libération de la commissure antérieure', 'Release of the anterior commissure'),
      step('fossa_haemostasis', 'Hémostase de la loge prostatique', 'Haemostasis of the prostatic fossa'),
      step('morcellation', 'Morcellation intravésicale', 'Intravesical morcellation'),
      step(
        'final_check_catheter',
        "Contrôle final et mise en place d'une sonde à irrigation",
        'Final check and three-way irrigation catheter placement',
      ),
    ],
  },
  {
    code: 'prostate_resection',
    name: { fr: 'Résection transurétrale de prostate', en: 'Transurethral resection of the prostate' },
    organ: 'prostate',
    steps: [
      step(
        'positioning_dilatation',
        'Installation en position de lithotomie et calibrage urétral',
        'Lithotomy positioning and urethral calibration',
      ),
      step(
        'resectoscope_cystoscopy',
        'Introduction du résecteur et repérage (méats, col vésical, veru montanum)',
        'Resectoscope insertion and landmarks (ureteric orifices, bladder neck, verumontanum)',
      ),
      step('median_lobe_resection', 'Résection du lobe médian et du col vésical', 'Resection of the median lobe and bladder neck'),
      step('lateral_lobe_resection', 'Résection des lobes latéraux', 'Resection of the lateral lobes'),
      step(
        'apical_resection',
        'Résection apicale en respectant le veru montanum et le sphincter strié',
        'Apical resection sparing the verumontanum and external sphincter',
      ),
      step('fossa_haemostasis', 'Hémostase de la loge prostatique', 'Haemostasis of the prostatic fossa'),
      step('chip_evacuation', 'Évacuation des copeaux', 'Evacuation of the prostate chips'),
      step(
        'final_check_catheter',
        "Contrôle final et mise en place d'une sonde à irrigation",
        'Final check and three-way irrigation catheter placement',
      ),
    ],
  },
  {
    code: 'hifu',
    name: {
      fr: 'HIFU (ultrasons focalisés de haute intensité)',
      en: 'HIFU (high-intensity focused ultrasound)',
    },
    organ: 'prostate',
    steps: [
      step(
        'positioning_anaesthesia',
        'Installation en décubitus latéral sous anesthésie',
        'Lateral decubitus positioning under anaesthesia',
      ),
      step(
        'probe_insertion',
        'Mise en place de la sonde endorectale et du ballonnet de refroidissement',
        'Insertion of the endorectal probe and cooling balloon',
      ),
      step('imaging_fusion', "Acquisition échographique et fusion avec l'IRM", 'Ultrasound acquisition and MRI fusion'),
      step(
        'treatment_planning',
        'Contourage de la cible et planification des zones de traitement',
        'Target contouring and treatment planning',
      ),
      step(
        'safety_margins',
        'Vérification des marges de sécurité (paroi rectale, apex, sphincter)',
        'Check of the safety margins (rectal wall, apex, sphincter)',
      ),
      step('hifu_delivery', 'Délivrance des tirs HIFU bloc par bloc', 'Block-by-block HIFU delivery'),
      step(
        'treated_zone_control',
        'Contrôle de la zone traitée par échographie de contraste',
        'Control of the treated zone by contrast-enhanced ultrasound',
      ),
      step('probe_removal_drainage', 'Retrait de la sonde et drainage vésical', 'Probe removal and bladder drainage'),
    ],
  },
  {
    code: 'open_hernia_surgery',
    name: { fr: 'Cure de hernie inguinale par voie ouverte', en: 'Open inguinal hernia repair' },
    organ: null,
    steps: [
      step('positioning_incision', 'Installation et incision inguinale', 'Positioning and inguinal incision'),
      step('external_oblique_opening', "Ouverture de l'aponévrose du grand oblique", 'Opening of the external oblique aponeurosis'),
      step(
        'cord_dissection',
        'Dissection du cordon spermatique avec préservation des nerfs ilio-inguinal et ilio-hypogastrique',
        'Dissection of the spermatic cord preserving the ilioinguinal and iliohypogastric nerves',
      ),
      step('hernia_sac', 'Dissection du sac herniaire, réintégration ou résection', 'Dissection of the hernia sac, reduction or excision'),
      step('mesh_fixation', 'Mise en place et fixation de la prothèse (Lichtenstein)', 'Mesh placement and fixation (Lichtenstein)'),
      step('external_oblique_closure', "Fermeture de l'aponévrose du grand oblique", 'Closure of the external oblique aponeurosis'),
      step('skin_closure', 'Fermeture sous-cutanée et cutanée', 'Subcutaneous and skin closure'),
    ],
  },
  {
    code: 'laparoscopic_hernia_surgery',
    name: { fr: 'Cure de hernie inguinale par laparoscopie', en: 'Laparoscopic inguinal hernia repair' },
    organ: null,
    steps: [
      trocarPlacement(
        'Installation, création du pneumopéritoine et mise en place des trocarts',
        'Positioning, pneumoperitoneum and trocar placement',
      ),
      step(
        'defect_identification',
        'Exploration et identification des orifices herniaires',
        'Exploration and identification of the hernia defects',
      ),
      step('peritoneal_flap', 'Incision et décollement du lambeau péritonéal', 'Incision and dissection of the peritoneal flap'),
      step(
        'preperitoneal_dissection',
        "Dissection de l'espace prépéritonéal (espaces de Retzius et de Bogros)",
        'Dissection of the preperitoneal space (Retzius and Bogros spaces)',
      ),
      step(
        'sac_reduction_parietalisation',
        'Réduction du sac herniaire et pariétalisation des éléments du cordon',
        'Reduction of the hernia sac and parietalisation of the cord structures',
      ),
      step('mesh_fixation', 'Mise en place et fixation de la prothèse', 'Mesh placement and fixation'),
      step('peritoneal_closure', 'Fermeture du péritoine', 'Peritoneal closure'),
      step('desufflation_closure', 'Exsufflation et fermeture des orifices de trocarts', 'Desufflation and closure of the trocar sites'),
    ],
  },
  {
    code: 'adrenalectomy',
    name: { fr: 'Surrénalectomie', en: 'Adrenalectomy' },
    organ: 'adrenal_gland',
    steps: [
      trocarPlacement(
        'Installation en décubitus latéral, pneumopéritoine et mise en place des trocarts',
        'Lateral decubitus positioning, pneumoperitoneum and trocar placement',
      ),
      step(
        'visceral_mobilisation',
        "Mobilisation du foie à droite, de l'angle colique et de la rate à gauche",
        'Mobilisation of the liver on the right, of the splenic flexure and spleen on the left',
      ),
      step('adrenal_exposure', 'Exposition de la loge surrénalienne', 'Exposure of the adrenal space'),
      step(
        'adrenal_vein_control',
        'Dissection et contrôle de la veine surrénalienne principale',
        'Dissection and control of the main adrenal vein',
      ),
      step(
        'periadrenal_dissection',
        'Dissection périsurrénalienne et hémostase des pédicules artériels',
        'Periadrenal dissection and control of the arterial pedicles',
      ),
      step('gland_release', 'Libération complète de la glande', 'Complete release of the gland'),
      step('specimen_extraction', 'Extraction de la pièce en sac', 'Specimen extraction in a retrieval bag'),
      step('haemostasis_closure', "Contrôle de l'hémostase et fermeture", 'Haemostasis check and closure'),
    ],
  },
  {
    code: 'splenectomy',
    name: { fr: 'Splénectomie', en: 'Splenectomy' },
    organ: null,
    steps: [
      trocarPlacement(
        'Installation en décubitus latéral droit, pneumopéritoine et mise en place des trocarts',
        'Right lateral decubitus positioning, pneumoperitoneum and trocar placement',
      ),
      step(
        'exploration_accessory_spleens',
        'Exploration et recherche de rates accessoires',
        'Exploration and search for accessory spleens',
      ),
      step(
        'splenic_flexure_mobilisation',
        "Mobilisation de l'angle colique gauche et section du ligament splénocolique",
        'Splenic flexure mobilisation and division of the splenocolic ligament',
      ),
      step(
        'short_gastric_division',
        'Section des vaisseaux courts (ligament gastrosplénique)',
        'Division of the short gastric vessels (gastrosplenic ligament)',
      ),
      step(
        'hilar_control',
        'Contrôle du pédicule splénique à la pince agrafeuse vasculaire, à distance de la queue du pancréas',
        'Stapled control of the splenic hilum, away from the tail of the pancreas',
      ),
      step(
        'splenophrenic_release',
        'Section du ligament splénophrénique et libération de la rate',
        'Division of the splenophrenic ligament and release of the spleen',
      ),
      step('spleen_extraction', 'Extraction de la rate en sac après morcellement', 'Retrieval of the spleen in a bag after morcellation'),
      step('haemostasis_drainage_closure', "Contrôle de l'hémostase, drainage et fermeture", 'Haemostasis check, drainage and closure'),
    ],
  },
  {
    code: 'pyeloplasty',
    name: { fr: 'Pyéloplastie', en: 'Pyeloplasty' },
    organ: 'kidney',
    steps: [
      trocarPlacement(
        'Installation en décubitus latéral, pneumopéritoine et mise en place des trocarts',
        'Lateral decubitus positioning, pneumoperitoneum and trocar placement',
      ),
      step(
        'pelviureteric_junction_exposure',
        'Décollement colique et exposition de la jonction pyélo-urétérale',
        'Colonic mobilisation and exposure of the pelviureteric junction',
      ),
      step(
        'pelvis_ureter_dissection',
        "Dissection du bassinet et de l'uretère lombaire, recherche d'un vaisseau polaire inférieur",
        'Dissection of the renal pelvis and proximal ureter, looking for a lower-pole crossing vessel',
      ),
      step(
        'junction_resection',
        'Section de la jonction pyélo-urétérale et résection de la zone sténosée',
        'Transection of the pelviureteric junction and excision of the stenotic segment',
      ),
      step('ureteric_spatulation', "Spatulation de l'uretère", 'Ureteric spatulation'),
      step(
        'posterior_anastomosis',
        'Anastomose pyélo-urétérale : hémi-surjet postérieur',
        'Pyeloureteric anastomosis: posterior running suture',
      ),
      step('double_j_stent', "Mise en place d'une sonde double J", 'Double-J stent placement'),
      step(
        'anterior_anastomosis',
        'Hémi-surjet antérieur et fermeture du bassinet',
        'Anterior running suture and closure of the renal pelvis',
      ),
      step('drainage_closure', 'Drainage et fermeture', 'Drainage and closure'),
    ],
  },
];
