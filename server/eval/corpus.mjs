// The evaluation drive: realistic documents, scans, photos and videos of one person, plus distractors.
// `generate-fixtures.mjs` renders it into fixtures/; `queries.json` says what each query should find.

const p = (...paragraphs) => paragraphs.join('\n\n');

/** Documents rendered as PDF, DOCX or plain text. `date` becomes the document's creation date. */
export const documents = [
  {
    path: 'Work/Employment_Contract_Acme.pdf',
    date: '2025-02-10',
    title: 'Employment Agreement',
    text: p(
      'EMPLOYMENT AGREEMENT',
      'This Employment Agreement is entered into on February 10, 2025 between Acme Robotics Inc., a Delaware corporation (the "Company"), and Jane Doe (the "Employee").',
      '1. Position and Duties. The Company hires the Employee as Senior Software Engineer reporting to the VP of Engineering. The Employee shall devote full working time to the Company.',
      '2. Compensation. The Company shall pay the Employee an annual base salary of 145,000 USD, payable in bi-weekly installments, plus an annual performance bonus of up to 15 percent.',
      '3. Benefits. The Employee is eligible for health insurance, 25 days of paid vacation and the 401(k) retirement plan.',
      '4. Termination. Either party may terminate this agreement with thirty (30) days written notice. Probation period: three months.',
      '5. Confidentiality and Non-Compete. The Employee agrees to keep proprietary information confidential during and after employment.',
      'Signed: Jane Doe, Employee. Robert Chen, CEO, Acme Robotics Inc.',
    ),
  },
  {
    path: 'Work/NDA_Globex.pdf',
    date: '2024-06-03',
    title: 'Mutual Non-Disclosure Agreement',
    text: p(
      'MUTUAL NON-DISCLOSURE AGREEMENT',
      'Globex Corporation and Jane Doe Consulting agree that any Confidential Information disclosed by either party in connection with the evaluation of a potential business relationship shall be held in strict confidence.',
      'Confidential Information includes trade secrets, source code, customer lists, pricing and financial information. The receiving party shall not disclose it to third parties without prior written consent.',
      'Term: this agreement remains in force for two years from the effective date. Governing law: State of New York.',
    ),
  },
  {
    path: 'Work/Q3_Sales_Report.pdf',
    date: '2026-10-08',
    title: 'Q3 Sales Report',
    text: p(
      'Quarterly Sales Report: Q3 2026',
      'Revenue grew 12 percent quarter over quarter to 4.2 million USD. The EMEA region led growth with new enterprise customers in Germany and France.',
      'Top products: the warehouse robot arm (38 percent of revenue) and the fleet management subscription (27 percent). Churn fell to 3.1 percent.',
      'Pipeline for Q4 stands at 9.8 million USD. Key risks: component shortages and longer procurement cycles.',
    ),
  },
  {
    path: 'Work/meeting-notes-2026-10-14.docx',
    date: '2026-10-14',
    title: 'Product team meeting',
    text: p(
      'Product team weekly meeting, October 14',
      'Attendees: Jane, Marco, Priya, Tom.',
      'Roadmap: the mobile app beta ships in December; offline sync moves to Q1. Priya presented customer interview findings: users want bulk export and better search.',
      'Action items: Marco to draft the launch plan, Tom to fix the login crash on Android, Jane to review the API design document by Friday.',
    ),
  },
  {
    path: 'Work/resume_jane_doe.docx',
    date: '2024-11-02',
    title: 'Jane Doe CV',
    text: p(
      'Jane Doe, Senior Software Engineer',
      'Experience: Acme Robotics (2025 to present), backend platform and robotics fleet APIs. Globex Corporation (2019 to 2024), payments infrastructure team lead.',
      'Education: B.Sc. Computer Science, University of Michigan, 2015.',
      'Skills: TypeScript, Go, PostgreSQL, Kubernetes, distributed systems, mentoring.',
    ),
  },
  {
    path: 'Receipts/invoice_hosting_oct.pdf',
    date: '2026-10-05',
    title: 'Invoice INV-2026-1043',
    text: p(
      'INVOICE No. INV-2026-1043',
      'CloudNest Hosting Ltd., 12 Harbour Street, Dublin, Ireland',
      'Bill to: Jane Doe, 48 Maple Avenue, Springfield',
      'Invoice date: October 5, 2026. Due date: November 4, 2026.',
      'Virtual server plan L, October 2026: 48.00 EUR. Backup storage 200 GB: 12.00 EUR. VAT 23 percent: 13.80 EUR. Total due: 73.80 EUR.',
      'Please pay by bank transfer to IBAN IE29 AIBK 9311 5212 3456 78.',
    ),
  },
  {
    path: 'Receipts/invoice_plumbing_july.pdf',
    date: '2026-07-21',
    title: 'Invoice 5581',
    text: p(
      'Springfield Plumbing and Heating, Invoice number 5581',
      'Customer: Jane Doe. Service date: July 18, 2026.',
      'Replaced kitchen sink faucet and repaired leaking pipe under the bathroom sink. Labour 2.5 hours: 187.50 USD. Parts: 96.40 USD. Total: 283.90 USD. Paid by card.',
    ),
  },
  {
    path: 'Receipts/electricity_bill_september.pdf',
    date: '2026-09-30',
    title: 'Electricity bill',
    text: p(
      'Springfield Power and Light, monthly statement',
      'Account 88-2041-77, service address 48 Maple Avenue.',
      'Billing period September 1 to September 30, 2026. Electricity usage 412 kWh. Energy charge 61.80 USD, delivery charge 22.15 USD. Amount due 83.95 USD by October 20.',
    ),
  },
  {
    path: 'Taxes 2025/tax_return_2025.pdf',
    date: '2026-04-02',
    title: 'Form 1040 Individual Income Tax Return 2025',
    text: p(
      'Form 1040 U.S. Individual Income Tax Return 2025',
      'Filing status: single. Name: Jane Doe.',
      'Wages, salaries, tips: 139,420. Taxable interest: 312. Adjusted gross income: 139,732. Standard deduction: 15,000. Taxable income: 124,732.',
      'Total tax: 23,850. Federal income tax withheld: 25,100. Refund: 1,250, direct deposit.',
    ),
  },
  {
    path: 'Taxes 2025/W2_Acme_2025.pdf',
    date: '2026-01-28',
    title: 'Form W-2 Wage and Tax Statement 2025',
    text: p(
      'Form W-2 Wage and Tax Statement 2025',
      'Employer: Acme Robotics Inc., EIN 84-1234567. Employee: Jane Doe.',
      'Box 1 wages, tips, other compensation: 139,420.00. Box 2 federal income tax withheld: 25,100.00. Box 3 social security wages: 139,420.00.',
    ),
  },
  {
    path: 'Home/apartment_lease.pdf',
    date: '2024-08-15',
    title: 'Residential Lease Agreement',
    text: p(
      'RESIDENTIAL LEASE AGREEMENT',
      'Landlord: Maple Properties LLC. Tenant: Jane Doe. Premises: Apartment 3B, 48 Maple Avenue, Springfield.',
      'Term: twelve months starting September 1, 2024. Monthly rent: 1,850 USD due on the first day of each month. Security deposit: 1,850 USD.',
      'Pets are allowed with a one-time pet fee of 300 USD. Tenant is responsible for electricity and internet. Notice to vacate: 60 days.',
    ),
  },
  {
    path: 'Home/home_insurance_policy.pdf',
    date: '2025-09-01',
    title: 'Renters Insurance Policy',
    text: p(
      'Renters Insurance Policy Declarations',
      'Insurer: Safe Harbor Mutual. Policy number RH-7731902. Insured: Jane Doe, 48 Maple Avenue, Apartment 3B.',
      'Coverage: personal property 40,000 USD; personal liability 300,000 USD; loss of use 12,000 USD. Deductible 500 USD. Annual premium 186 USD.',
      'Covered perils include fire, theft, water damage from burst pipes and windstorm.',
    ),
  },
  {
    path: 'Car/car_insurance_certificate.pdf',
    date: '2026-03-12',
    title: 'Auto Insurance Card',
    text: p(
      'Auto Insurance Identification Card',
      'Company: RoadSure Insurance. Policy AU-55120398. Named insured: Jane Doe.',
      'Vehicle: 2021 Toyota RAV4, VIN 2T3P1RFV8MC123456. Effective 03/12/2026 to 09/12/2026. Liability, collision and comprehensive coverage.',
    ),
  },
  {
    path: 'Car/service_record.docx',
    date: '2026-05-06',
    title: 'Vehicle service history',
    text: p(
      'Service history, Toyota RAV4',
      'May 6, 2026 at 41,200 miles: oil change and filter, tire rotation, brake pads inspected (60 percent remaining).',
      'November 2025 at 35,900 miles: replaced front brake pads and wiper blades, coolant top-up.',
      'Next service due at 46,000 miles.',
    ),
  },
  {
    path: 'Recipes/lasagna.txt',
    text: p(
      'Classic beef lasagna (serves 6)',
      'Ingredients: 12 lasagna sheets, 500 g ground beef, 1 onion, 2 garlic cloves, 700 g tomato passata, 250 g ricotta, 200 g mozzarella, parmesan, basil.',
      'Brown the beef with onion and garlic, add passata and simmer 30 minutes. Layer sauce, pasta sheets, ricotta and mozzarella three times. Bake at 190 C for 40 minutes.',
    ),
  },
  {
    path: 'Recipes/banana_bread.md',
    text: p(
      '# Banana bread',
      'A moist, sweet loaf for overripe bananas. Mash 3 bananas, mix with 75 g melted butter, 150 g sugar, 1 egg and a teaspoon of vanilla.',
      'Fold in 190 g flour, 1 teaspoon baking soda and a pinch of salt. Bake in a loaf tin at 175 C for 60 minutes. Add chocolate chips or walnuts if you like dessert.',
    ),
  },
  {
    path: 'Recipes/vegetarian_chili.docx',
    date: '2025-01-19',
    title: 'Vegetarian chili',
    text: p(
      'Vegetarian chili',
      'Saute onion, peppers and garlic in olive oil. Add cumin, smoked paprika and chili powder, then black beans, kidney beans, canned tomatoes and sweetcorn.',
      'Simmer for 45 minutes and serve with rice, sour cream and fresh coriander.',
    ),
  },
  {
    path: 'School/biology_essay_photosynthesis.docx',
    date: '2023-03-14',
    title: 'How plants make food',
    text: p(
      'How plants make food: an essay on photosynthesis',
      'Photosynthesis converts light energy into chemical energy. In the chloroplasts, chlorophyll absorbs sunlight; water is split, releasing oxygen, and carbon dioxide is fixed into glucose through the Calvin cycle.',
      'The process sustains nearly all life on Earth by producing oxygen and organic matter.',
    ),
  },
  {
    path: 'School/history_notes_ww2.txt',
    text: p(
      'History notes: the Second World War (1939 to 1945)',
      'Causes: the Treaty of Versailles, the Great Depression, the rise of fascism. Key events: invasion of Poland, Battle of Britain, Pearl Harbor, Stalingrad, D-Day landings in Normandy, the atomic bombings of Hiroshima and Nagasaki.',
      'Consequences: the United Nations, the Cold War, decolonisation.',
    ),
  },
  {
    path: 'Medical/lab_results_2026.pdf',
    date: '2026-06-09',
    title: 'Laboratory report',
    text: p(
      'Springfield Medical Laboratory, patient report',
      'Patient: Jane Doe. Collected June 9, 2026. Complete blood count and lipid panel.',
      'Hemoglobin 13.8 g/dL (normal). White blood cells 6.1. Total cholesterol 182 mg/dL, LDL 104, HDL 61. Glucose fasting 88 mg/dL.',
      'Physician comment: results within normal limits.',
    ),
  },
  {
    path: 'Medical/immunization_record.pdf',
    date: '2025-10-20',
    title: 'Immunization record',
    text: p(
      'Immunization record for Jane Doe',
      'Influenza vaccine, October 20, 2025. COVID-19 booster, October 20, 2025. Tetanus, diphtheria, pertussis (Tdap), May 2021. Hepatitis B series completed 2010.',
    ),
  },
  {
    path: 'Travel/flight_confirmation_AF.pdf',
    date: '2026-03-02',
    title: 'Your booking confirmation',
    text: p(
      'Air France booking confirmation, reference K7PQ2M',
      'Passenger: Jane Doe. Flight AF 23 New York JFK to Paris Charles de Gaulle, departure April 16, 2026 at 19:30, arrival April 17 at 08:55. Return AF 22 on April 24.',
      'Seat 32A, economy, one checked bag included.',
    ),
  },
  {
    path: 'Travel/hotel_reservation_rome.pdf',
    date: '2025-05-20',
    title: 'Hotel reservation',
    text: p(
      'Reservation confirmed: Hotel Trevi Gardens, Rome',
      'Guest: Jane Doe, 2 adults, 2 children. Check-in July 11, 2025, check-out July 15, 2025. Family room with breakfast. Total 1,240 EUR, free cancellation until July 4.',
    ),
  },
  {
    path: 'wedding_invitation_sam_alex.docx',
    date: '2026-02-14',
    title: 'Wedding invitation',
    text: p(
      'Together with their families, Sam Rivera and Alex Kim invite you to celebrate their marriage',
      'Saturday, September 12, 2026 at four o clock in the afternoon, Lakeside Gardens, Madison. Dinner and dancing to follow. Kindly reply by August 1.',
    ),
  },
  {
    path: 'birthday_party_plan.txt',
    text: p(
      'Mia turns 8: party plan',
      'Date: May 10. Guests: 12 kids from school. Theme: unicorns. Bake a chocolate cake, buy balloons, candles and party favors. Games: treasure hunt, musical chairs.',
    ),
  },
  {
    path: 'packing_list.txt',
    text: 'Packing list: passport, chargers, sunscreen, swimsuits, hiking boots, rain jacket, adapters, medication, snacks for the plane.',
  },
  {
    path: 'garden_plan.md',
    text: '# Garden plan\nRaised bed 1: tomatoes, basil, peppers. Raised bed 2: lettuce, carrots, radishes. Plant after the last frost, water every morning, compost in autumn.',
  },
  {
    path: 'budget_2026.csv',
    text: 'category,month,amount\nrent,january,1850\ngroceries,january,620\nutilities,january,140\ntransport,january,210\nsavings,january,900\nrent,february,1850\ngroceries,february,580',
  },
  {
    path: 'todo.txt',
    text: 'Call the dentist. Renew library card. Fix the bike tire. Email Marco about the launch plan. Buy a gift for Mia.',
  },
  // Distractors: plausible files that no query is after.
  {
    path: 'Work/api_design_v2.md',
    text: '# API design v2\nResources: robots, missions, telemetry. Pagination with cursors. Errors use stable codes. Rate limit 100 requests per minute per token.',
  },
  {
    path: 'Work/server_logs_export.json',
    text: '{"level":"info","msg":"robot 17 docked","ts":"2026-10-02T10:00:00Z"}\n{"level":"warn","msg":"battery low on robot 4","ts":"2026-10-02T10:05:00Z"}',
  },
  {
    path: 'lorem_ipsum.pdf',
    date: '2022-01-01',
    title: 'Draft',
    text: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam.',
  },
  {
    path: 'School/reading_list.txt',
    text: 'Reading list: To Kill a Mockingbird, 1984, The Great Gatsby, Pride and Prejudice, Brave New World.',
  },
];

/** Paper photographed or scanned: rendered to JPEG with noise and a slight rotation, then read by OCR. */
export const scans = [
  {
    path: 'Scans/scan_0001.jpg',
    rotate: 2,
    lines: [
      'CALIFORNIA',
      'DRIVER LICENSE',
      'DL  D4821937',
      'CLASS C   EXP 08/14/2029',
      'LN DOE',
      'FN JANE MARIE',
      'DOB 03/22/1993',
      'SEX F   HGT 5-07   EYES BRN',
      '2210 MAPLE AVENUE SPRINGFIELD',
    ],
  },
  {
    path: 'Scans/scan_0002.jpg',
    rotate: -3,
    lines: [
      'PASSPORT',
      'UNITED STATES OF AMERICA',
      'Type P   Code USA',
      'Passport No. 583920174',
      'Surname DOE',
      'Given names JANE MARIE',
      'Nationality UNITED STATES OF AMERICA',
      'Date of birth 22 MAR 1993',
      'Date of expiration 10 JUN 2033',
    ],
  },
  {
    path: 'Scans/IMG_20261005_193022.jpg',
    rotate: 4,
    lines: [
      'TRATTORIA DA LUIGI',
      '112 Main Street, Springfield',
      'Table 7     Guests 2',
      '1 Margherita pizza      14.50',
      '1 Spaghetti carbonara  17.00',
      '2 Glass of red wine     18.00',
      '1 Tiramisu               8.50',
      'Subtotal                58.00',
      'Tip                     10.00',
      'TOTAL                   68.00',
      'Thank you for dining with us',
    ],
  },
  {
    path: 'Scans/doc_0004.jpg',
    rotate: -2,
    lines: [
      'Maple Properties LLC',
      'Dear Ms. Doe,',
      'This letter is to inform you that your',
      'lease renewal for Apartment 3B is due.',
      'The new monthly rent will be 1,920 USD',
      'starting September 1, 2026. Please sign',
      'and return the renewal form within',
      'thirty days. Sincerely, the landlord',
    ],
  },
  {
    path: 'Scans/IMG_4521.jpg',
    rotate: 3,
    lines: [
      'STATE OF MICHIGAN',
      'CERTIFICATE OF LIVE BIRTH',
      'Name of child: Jane Marie Doe',
      'Date of birth: March 22, 1993',
      'Place of birth: Ann Arbor, Washtenaw County',
      'Mother: Susan Doe   Father: Michael Doe',
      'Registrar: Office of Vital Records',
    ],
  },
  {
    path: 'Scans/scan_0006.jpg',
    rotate: -1,
    lines: [
      'FIRST NATIONAL BANK',
      'Account statement  October 2026',
      'Account holder: Jane Doe',
      'Checking account ending 4417',
      'Opening balance        5,210.44',
      'Deposits              11,630.00',
      'Withdrawals            -9,402.18',
      'Closing balance        7,438.26',
    ],
  },
];

/** Photos: synthetic pixels (no text), with EXIF date and, where a phone would record it, GPS. */
export const photos = [
  { path: 'Family Vacation Italy/IMG_2301.jpg', date: '2025-07-12T10:15:00', gps: [41.8902, 12.4922], seed: 1 },
  { path: 'Family Vacation Italy/IMG_2302.jpg', date: '2025-07-12T17:40:00', gps: [41.9009, 12.4833], seed: 2 },
  { path: 'Family Vacation Italy/IMG_2303.jpg', date: '2025-07-13T11:05:00', gps: [43.7731, 11.256], seed: 3 },
  { path: 'Family Vacation Italy/IMG_2304.jpg', date: '2025-07-14T09:30:00', gps: [45.4341, 12.3388], seed: 4 },
  { path: 'Paris Trip/IMG_3101.jpg', date: '2026-04-18T14:20:00', gps: [48.8584, 2.2945], seed: 5 },
  { path: 'Paris Trip/IMG_3102.jpg', date: '2026-04-19T10:45:00', gps: [48.8606, 2.3376], seed: 6 },
  { path: 'Paris Trip/IMG_3103.jpg', date: '2026-04-20T16:00:00', gps: [48.8867, 2.3431], seed: 7 },
  { path: 'Pets/IMG_5001.jpg', date: '2026-02-07T09:12:00', seed: 8 },
  { path: 'Pets/IMG_5002.jpg', date: '2026-02-21T15:30:00', seed: 9 },
  { path: 'IMG_6001.jpg', date: '2026-11-12T13:05:00', gps: [40.758, -73.9855], seed: 10 },
  { path: 'IMG_6002.jpg', date: '2025-03-28T08:40:00', gps: [35.6595, 139.7005], seed: 11 },
  { path: 'IMG_6003.jpg', date: '2024-09-02T12:00:00', gps: [51.5007, -0.1246], seed: 12 },
  { path: 'beach_sunset.jpg', date: '2026-08-03T20:45:00', gps: [41.3809, 2.1896], seed: 13 },
  { path: 'hiking_in_the_mountains.jpg', date: '2026-07-20T11:30:00', gps: [46.0207, 7.7491], seed: 14 },
  { path: 'birthday_cake.jpg', date: '2026-05-10T16:00:00', seed: 15 },
  { path: 'IMG_8001.jpg', date: '2023-04-02T10:00:00', seed: 16 },
  { path: 'IMG_8002.jpg', date: '2023-06-15T10:00:00', seed: 17 },
  { path: 'IMG_8003.jpg', date: '2023-09-09T10:00:00', seed: 18 },
  { path: 'IMG_8004.jpg', date: '2023-12-24T18:00:00', seed: 19 },
  { path: 'DSC00417.jpg', date: '2022-08-19T07:50:00', seed: 20 },
];

/** Short clips with the metadata phones write: creation time, location, sometimes a title. */
export const videos = [
  { path: 'Family Vacation Italy/VID_20250714_181502.mp4', date: '2025-07-14T18:15:02Z', gps: [41.8986, 12.4769], seed: 1 },
  { path: 'Videos/kids_soccer_game.mp4', date: '2026-10-04T10:00:00Z', gps: [30.2672, -97.7431], seed: 2 },
  { path: 'Videos/VID_20260815_120000.mp4', date: '2026-08-15T12:00:00Z', gps: [39.0968, -120.0324], seed: 3 },
  { path: 'Pets/dog_playing_fetch.mp4', date: '2026-03-02T16:20:00Z', seed: 4 },
  { path: 'Videos/screen_recording.mp4', date: '2026-09-10T09:00:00Z', title: 'Product demo of the fleet dashboard', seed: 5 },
  { path: 'Videos/VID_20240101_000512.mp4', date: '2024-01-01T00:05:12Z', gps: [51.5081, -0.0759], seed: 6 },
];
