-- Demo data for local development and tests. Deterministic: fixed ids, timestamps relative to now().
-- Every demo account signs in with the password 'demo-password'.
--   buyer@demo.test   demo_buyer   00000000-0000-4000-8000-000000000001
--   seller@demo.test  demo_seller  00000000-0000-4000-8000-000000000002
--   admin@demo.test   ada_lovelace   00000000-0000-4000-8000-000000000003
-- Five more sellers (…011–…015) and ten more buyers (…021–…030), 72 published agents
-- (12 per category), 3 unpublished agents of demo_seller, purchases in all four statuses,
-- reviews only from buyers with a completed purchase.

-- Deterministic pseudo-random integer in [0, 2^28) from a text key.
create or replace function pg_temp.h(key text) returns integer
language sql immutable as $$ select ('x' || substr(md5(key), 1, 7))::bit(28)::integer $$;

-- ---------------------------------------------------------------------------------------------
-- Accounts (auth.users + auth.identities; the sign-up trigger creates public.users and settings)
-- ---------------------------------------------------------------------------------------------
create temporary table seed_accounts (
  id uuid primary key,
  email text not null,
  username text not null,
  user_type text not null,
  first_name text,
  last_name text,
  location text,
  website text,
  bio text,
  days_ago integer not null
);

insert into seed_accounts values
('00000000-0000-4000-8000-000000000001', 'buyer@demo.test', 'demo_buyer', 'buyer', 'Dana', 'Buyer', 'Austin, TX', null, 'Operations lead trying out AI agents for a growing e-commerce team.', 200),
('00000000-0000-4000-8000-000000000002', 'seller@demo.test', 'demo_seller', 'seller', 'Sam', 'Seller', 'Berlin, Germany', 'https://demo-seller.example.com', 'Independent developer building practical AI agents for marketing and sales teams.', 210),
('00000000-0000-4000-8000-000000000003', 'admin@demo.test', 'ada_lovelace', 'admin', 'Ada', 'Lovelace', 'Remote', null, 'Keeps the marketplace running smoothly.', 220),
('00000000-0000-4000-8000-000000000011', 'nova.labs@demo.test', 'nova_labs', 'seller', 'Nora', 'Vance', 'Toronto, Canada', 'https://novalabs.example.com', 'A small studio shipping data and analytics agents since 2023.', 205),
('00000000-0000-4000-8000-000000000012', 'quillworks@demo.test', 'quillworks', 'seller', 'Theo', 'Quill', 'London, UK', 'https://quillworks.example.com', 'Writers and engineers building content agents that respect your voice.', 203),
('00000000-0000-4000-8000-000000000013', 'ledgerlogic@demo.test', 'ledgerlogic', 'seller', 'Mei', 'Tanaka', 'Singapore', 'https://ledgerlogic.example.com', 'Finance automation for small and mid-sized businesses.', 199),
('00000000-0000-4000-8000-000000000014', 'pipeline.pros@demo.test', 'pipeline_pros', 'seller', 'Jordan', 'Reyes', 'Chicago, IL', 'https://pipelinepros.example.com', 'Former sales leaders turning playbooks into agents.', 197),
('00000000-0000-4000-8000-000000000015', 'carecraft@demo.test', 'carecraft_ai', 'seller', 'Ines', 'Moreau', 'Lyon, France', 'https://carecraft.example.com', 'Customer support agents that know when to hand over to a human.', 195),
('00000000-0000-4000-8000-000000000021', 'alex.rivera@demo.test', 'alex_rivera', 'buyer', 'Alex', 'Rivera', 'Madrid, Spain', null, null, 180),
('00000000-0000-4000-8000-000000000022', 'priya.shah@demo.test', 'priya_shah', 'buyer', 'Priya', 'Shah', 'Mumbai, India', null, 'Growth marketer at a B2B SaaS startup.', 176),
('00000000-0000-4000-8000-000000000023', 'marcus.chen@demo.test', 'marcus_chen', 'buyer', 'Marcus', 'Chen', 'San Francisco, CA', null, null, 170),
('00000000-0000-4000-8000-000000000024', 'sofia.martins@demo.test', 'sofia_martins', 'buyer', 'Sofia', 'Martins', 'Lisbon, Portugal', null, 'Runs customer support for an online retailer.', 164),
('00000000-0000-4000-8000-000000000025', 'liam.obrien@demo.test', 'liam_obrien', 'buyer', 'Liam', 'O''Brien', 'Dublin, Ireland', null, null, 158),
('00000000-0000-4000-8000-000000000026', 'hana.kim@demo.test', 'hana_kim', 'buyer', 'Hana', 'Kim', 'Seoul, South Korea', null, 'Data analyst who automates everything twice.', 150),
('00000000-0000-4000-8000-000000000027', 'diego.alvarez@demo.test', 'diego_alvarez', 'buyer', 'Diego', 'Alvarez', 'Mexico City, Mexico', null, null, 141),
('00000000-0000-4000-8000-000000000028', 'emma.johansson@demo.test', 'emma_johansson', 'buyer', 'Emma', 'Johansson', 'Stockholm, Sweden', null, 'Finance manager at a design agency.', 133),
('00000000-0000-4000-8000-000000000029', 'noah.williams@demo.test', 'noah_williams', 'buyer', 'Noah', 'Williams', 'Sydney, Australia', null, null, 120),
('00000000-0000-4000-8000-000000000030', 'fatima.khan@demo.test', 'fatima_khan', 'buyer', 'Fatima', 'Khan', 'Dubai, UAE', null, 'Sales operations and CRM enthusiast.', 110);

-- One bcrypt hash (cost 10) of the published demo password, shared by all demo accounts and
-- written out rather than computed: hashing it here took a third of a second of every new
-- database in PGlite (ADR 044). It was made by crypt('demo-password', gen_salt('bf', 10)).
with pw as (select '$2a$10$vaK2RSZ28MGQYsMktJ54WeNdATVJulLT8x.PBGH1S1g.bGfkN87xq'::text as hash)
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, last_sign_in_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  email_change_token_current, phone_change, phone_change_token, reauthentication_token
)
select
  '00000000-0000-0000-0000-000000000000', a.id, 'authenticated', 'authenticated', a.email, pw.hash,
  now() - make_interval(days => a.days_ago),
  '{"provider":"email","providers":["email"]}'::jsonb,
  jsonb_build_object('username', a.username, 'user_type', a.user_type, 'email_verified', true),
  now() - make_interval(days => a.days_ago), now() - make_interval(days => a.days_ago), null,
  '', '', '', '', '', '', '', ''
from seed_accounts a cross join pw;

insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select
  a.id, a.id::text, a.id,
  jsonb_build_object('sub', a.id::text, 'email', a.email, 'email_verified', true, 'phone_verified', false),
  'email', null, now() - make_interval(days => a.days_ago), now() - make_interval(days => a.days_ago)
from seed_accounts a;

-- The trigger never creates admins from metadata; promote the demo admin explicitly.
update public.users u
set user_type = a.user_type, first_name = a.first_name, last_name = a.last_name,
    location = a.location, website = a.website, bio = a.bio
from seed_accounts a
where u.id = a.id;

update public.user_settings set profile_visibility = 'members', show_email = true
where user_id = '00000000-0000-4000-8000-000000000002';
update public.user_settings set weekly_digest = false, marketing_emails = true
where user_id = '00000000-0000-4000-8000-000000000001';
update public.user_settings set profile_visibility = 'private'
where user_id = '00000000-0000-4000-8000-000000000023';

-- ---------------------------------------------------------------------------------------------
-- Agents
-- ---------------------------------------------------------------------------------------------
create temporary table seed_agents (
  n integer primary key,
  category text not null,
  name text not null,
  price numeric(10, 2) not null,
  description text not null,
  features text[] not null
);

insert into seed_agents (n, category, name, price, description, features) values
-- Marketing
(1, 'Marketing', 'CampaignPilot', 149, 'Plans, launches and tunes multi-channel ad campaigns from a single brief. It reallocates budget daily toward the ad sets with the best cost per acquisition.', array['Cross-channel budget pacing', 'Daily bid and budget reallocation', 'Audience segment suggestions', 'Weekly performance digest', 'Google Ads and Meta connectors']),
(2, 'Marketing', 'SEO Sentinel', 99, 'Audits your site every night and turns ranking drops into a prioritised fix list. Tracks keywords, broken links and Core Web Vitals in one place.', array['Nightly technical SEO audit', 'Keyword rank tracking', 'Broken link detection', 'Core Web Vitals monitoring']),
(3, 'Marketing', 'Social Pulse', 79, 'Listens to social channels for brand mentions and surfaces the conversations worth joining. Drafts on-brand replies for your team to approve.', array['Mention and hashtag tracking', 'Sentiment scoring', 'Reply drafts in your brand voice', 'Influencer discovery', 'Slack alerts']),
(4, 'Marketing', 'Email Sequence Architect', 129, 'Builds lifecycle email sequences from your product events and customer segments. A/B tests subject lines automatically and keeps the winners.', array['Event-triggered sequences', 'Automatic subject line A/B tests', 'Segment builder', 'Deliverability checks', 'Mailchimp and Klaviyo export']),
(5, 'Marketing', 'Competitor Radar', 89, 'Watches competitor websites, pricing pages and ad libraries and tells you what changed. Summaries arrive every Monday morning.', array['Pricing page change detection', 'Ad library monitoring', 'Weekly competitor briefing', 'Feature launch alerts']),
(6, 'Marketing', 'Landing Page Optimizer', 179, 'Generates landing page variants from your best-performing copy and runs controlled experiments. Stops losing variants early to protect conversions.', array['Variant generation from top copy', 'Sequential testing with early stopping', 'Heatmap summaries', 'Conversion lift reports', 'Works with Webflow and WordPress']),
(7, 'Marketing', 'Brand Voice Guardian', 59, 'Checks every piece of marketing copy against your brand guidelines before it ships. Flags off-tone phrasing and suggests compliant rewrites.', array['Tone and terminology checks', 'Rewrite suggestions', 'Google Docs add-on', 'Custom banned-word lists']),
(8, 'Marketing', 'Influencer Matchmaker', 199, 'Finds creators whose audiences overlap with your ideal customer profile. Estimates reach, engagement quality and likely cost per post.', array['Audience overlap scoring', 'Fake follower detection', 'Cost per post estimates', 'Outreach templates', 'Campaign tracking links', 'CSV shortlist export']),
(9, 'Marketing', 'Ad Creative Studio', 139, 'Turns a product photo and a headline into dozens of ad creatives sized for every placement. Learns which visuals convert for your audience.', array['Multi-placement resizing', 'Headline and visual combinations', 'Creative fatigue alerts', 'Brand kit support']),
(10, 'Marketing', 'Webinar Promoter', 49, 'Runs the full promotion schedule for a webinar: invitations, reminders, social posts and follow-ups. Boosts attendance rates without extra manual work.', array['Invitation and reminder scheduling', 'Social post calendar', 'No-show follow-up emails', 'Attendance analytics']),
(11, 'Marketing', 'Attribution Analyst', 249, 'Stitches together touchpoints from ads, email and organic search to show which channels really drive revenue. Supports first-touch, last-touch and data-driven models.', array['Multi-touch attribution models', 'Revenue by channel dashboards', 'UTM hygiene checker', 'CRM revenue sync', 'Monthly board-ready report']),
(12, 'Marketing', 'Local Listings Manager', 39, 'Keeps your business name, hours and address consistent across maps and directories. Replies to new local reviews within minutes.', array['Listing consistency scan', 'Holiday hours updates', 'Local review replies', 'Map ranking tracker']),
-- Data Analysis
(13, 'Data Analysis', 'InsightForge', 199, 'Connects to your warehouse and answers business questions in plain English with charts and the SQL behind them. Every answer can be saved as a live dashboard tile.', array['Natural language to SQL', 'Snowflake, BigQuery and Postgres', 'Explains every query', 'Save answers as dashboard tiles', 'Row-level permission aware']),
(14, 'Data Analysis', 'Anomaly Hunter', 149, 'Monitors your key metrics and alerts you when something moves outside its normal range. Explains which dimensions drove the change.', array['Seasonality-aware baselines', 'Root cause breakdown', 'Slack and email alerts', 'Alert noise controls']),
(15, 'Data Analysis', 'Spreadsheet Sage', 29, 'Cleans messy spreadsheets, fixes inconsistent formats and writes the formulas you need. Works directly inside Excel and Google Sheets.', array['Formula generation', 'Duplicate and format cleanup', 'Pivot table suggestions', 'Excel and Google Sheets add-ins']),
(16, 'Data Analysis', 'Churn Predictor', 229, 'Scores every customer by churn risk using product usage and billing signals. Recommends the retention play most likely to work for each account.', array['Weekly churn risk scores', 'Top risk drivers per account', 'Retention playbook suggestions', 'CRM field sync', 'Model accuracy tracking']),
(17, 'Data Analysis', 'Survey Synthesizer', 69, 'Reads thousands of open-ended survey answers and groups them into clear themes with representative quotes. Tracks how themes shift between survey waves.', array['Automatic theme clustering', 'Representative quotes', 'Sentiment by theme', 'Wave-over-wave comparison', 'Typeform and SurveyMonkey import']),
(18, 'Data Analysis', 'Forecast Studio', 179, 'Builds demand and revenue forecasts with confidence intervals from your historical data. Lets you test scenarios like price changes or new markets.', array['Time series forecasting', 'Confidence intervals', 'Scenario planning', 'Forecast accuracy backtests']),
(19, 'Data Analysis', 'Data Quality Watchdog', 159, 'Checks your pipelines for missing values, schema drift and late data before anyone builds a report on it. Opens tickets with the failing rows attached.', array['Schema drift detection', 'Freshness checks', 'Null and range tests', 'Jira ticket creation', 'dbt integration']),
(20, 'Data Analysis', 'Cohort Explorer', 89, 'Creates retention and revenue cohorts in seconds from raw event data. Compare cohorts by acquisition channel, plan or region.', array['Retention cohort charts', 'Revenue cohorts', 'Segment comparisons', 'Event data import from Segment']),
(21, 'Data Analysis', 'Dashboard Narrator', 59, 'Writes a short plain-English summary of what changed on your dashboards this week. Sends it to stakeholders who never open the BI tool.', array['Weekly written summaries', 'Looker and Tableau support', 'Highlights biggest movers', 'Email and Slack delivery']),
(22, 'Data Analysis', 'Experiment Analyst', 139, 'Analyses A/B tests correctly, including sample ratio checks and sequential testing. Tells you when a result is real and when to keep waiting.', array['Sample ratio mismatch checks', 'Sequential testing', 'Guardrail metric monitoring', 'Experiment write-up drafts', 'Bayesian and frequentist views']),
(23, 'Data Analysis', 'Geo Insights', 119, 'Maps customers, sales and service areas and finds geographic patterns you would miss in a table. Suggests new locations based on demand density.', array['Interactive heat maps', 'Territory balancing', 'Demand density analysis', 'Postal code enrichment']),
(24, 'Data Analysis', 'Log Lens', 99, 'Summarises application logs into incidents, trends and likely causes. Cuts the time from alert to diagnosis for on-call engineers.', array['Log pattern clustering', 'Incident timelines', 'Likely cause suggestions', 'Datadog and CloudWatch sources', 'On-call handover notes']),
-- Content Creation
(25, 'Content Creation', 'BlogSmith', 79, 'Researches a topic, outlines it and drafts long-form blog posts with sources you can check. Matches your house style and internal linking rules.', array['Research with cited sources', 'Outline and draft generation', 'Internal linking suggestions', 'House style guide support', 'WordPress publishing']),
(26, 'Content Creation', 'Video Script Writer', 69, 'Writes scripts for explainer videos, product demos and short-form social clips. Includes shot suggestions and on-screen text.', array['Hook-first script structure', 'Shot and b-roll suggestions', 'On-screen captions', 'Length presets for each platform']),
(27, 'Content Creation', 'Podcast Producer', 119, 'Turns raw podcast recordings into show notes, chapters, quotes and social clips. Publishes transcripts that are searchable on your site.', array['Accurate transcripts', 'Chapter markers', 'Show notes and key quotes', 'Audiogram clip suggestions', 'RSS-ready descriptions']),
(28, 'Content Creation', 'Product Description Pro', 49, 'Writes persuasive, SEO-friendly product descriptions for entire catalogues in one pass. Keeps specifications accurate and tone consistent.', array['Bulk catalogue generation', 'Spec-accurate copy', 'Shopify and WooCommerce sync', 'Multilingual output', 'Tone presets']),
(29, 'Content Creation', 'Newsletter Curator', 39, 'Collects the best articles in your niche each week and writes a ready-to-send newsletter around them. You approve, it schedules.', array['Source monitoring', 'Editorial summaries', 'Ready-to-send layouts', 'Substack and Beehiiv export']),
(30, 'Content Creation', 'Translation Studio', 159, 'Translates marketing and product content into 30 languages while keeping your terminology and brand tone. Reviewers see side-by-side diffs.', array['30 languages', 'Glossary enforcement', 'Side-by-side review', 'Locale-aware formatting', 'Figma and CMS plugins']),
(31, 'Content Creation', 'Case Study Builder', 99, 'Interviews customers through a guided questionnaire and turns the answers into polished case studies. Pulls out metrics and quotes automatically.', array['Guided customer questionnaire', 'Metric and quote extraction', 'Design-ready layouts', 'Approval workflow']),
(32, 'Content Creation', 'Social Carousel Maker', 29, 'Converts blog posts and reports into swipeable carousels for LinkedIn and Instagram. Applies your fonts and colours automatically.', array['Post to carousel conversion', 'Brand kit styling', 'LinkedIn and Instagram sizes', 'PDF export']),
(33, 'Content Creation', 'Technical Docs Assistant', 189, 'Drafts and maintains developer documentation from your code, OpenAPI specs and changelogs. Flags pages that went stale after a release.', array['OpenAPI to reference docs', 'Code sample generation', 'Stale page detection', 'Docs-as-code pull requests', 'Versioned docs support']),
(34, 'Content Creation', 'Headline Lab', 19, 'Generates and scores headline options for articles, emails and ads. Predicts click-through based on your past performance data.', array['Dozens of headline options', 'Click-through prediction', 'Character count presets', 'Past performance learning']),
(35, 'Content Creation', 'Course Creator', 229, 'Turns your expertise into a structured online course with lessons, quizzes and worksheets. Exports to the major learning platforms.', array['Curriculum outline generation', 'Lesson scripts', 'Quizzes and worksheets', 'Teachable and Thinkific export', 'Learning objective mapping']),
(36, 'Content Creation', 'Press Release Writer', 59, 'Writes news-ready press releases in standard format and suggests journalists who cover your beat. Includes a media kit checklist.', array['AP style formatting', 'Journalist suggestions', 'Boilerplate management', 'Embargo scheduling']),
-- Sales
(37, 'Sales', 'LeadScout', 129, 'Finds and enriches leads that match your ideal customer profile from public company data. Scores each lead by fit and buying intent.', array['ICP-based prospect search', 'Contact enrichment', 'Fit and intent scoring', 'CRM export', 'Duplicate suppression']),
(38, 'Sales', 'Outreach Composer', 89, 'Writes personalised cold emails and follow-ups using each prospect''s recent news and role. Keeps sequences short, relevant and compliant.', array['Personalised first lines', 'Multi-step sequences', 'Spam word checks', 'Reply classification', 'Gmail and Outlook support']),
(39, 'Sales', 'Deal Coach', 199, 'Reviews your pipeline every morning and tells each rep which deals need attention and why. Spots stalled deals before they slip.', array['Stalled deal detection', 'Next best action per deal', 'Forecast risk flags', 'Salesforce and HubSpot sync']),
(40, 'Sales', 'Call Notes Copilot', 109, 'Joins sales calls, writes structured notes and updates the CRM fields for you. Captures objections, next steps and competitor mentions.', array['Automatic call summaries', 'CRM field updates', 'Objection tracking', 'Competitor mention alerts', 'Zoom and Google Meet support']),
(41, 'Sales', 'Proposal Generator', 149, 'Builds tailored proposals and quotes from your templates, pricing and the notes of the discovery call. Tracks when the prospect opens them.', array['Template-based proposals', 'Pricing table builder', 'E-signature ready', 'Open and view tracking', 'PDF and web formats']),
(42, 'Sales', 'Pipeline Forecaster', 249, 'Predicts the quarter using deal history, rep behaviour and pipeline movement. Shows the gap to target and the deals that can close it.', array['Quarter-end predictions', 'Gap to target analysis', 'Deal slip probability', 'Rep-level breakdowns', 'Board-ready forecast exports']),
(43, 'Sales', 'Meeting Booker', 49, 'Qualifies inbound leads through a short conversation and books meetings straight into the right rep''s calendar. Works around the clock.', array['Inbound lead qualification', 'Round-robin routing', 'Calendar booking', 'Time zone handling']),
(44, 'Sales', 'Objection Handler', 69, 'Gives reps proven answers to common objections in real time during calls and email threads. Learns from the responses that win deals.', array['Real-time objection prompts', 'Win-rate based answers', 'Battlecard library', 'Email thread suggestions']),
(45, 'Sales', 'Account Mapper', 179, 'Maps buying committees inside target accounts and finds the champions, blockers and budget holders. Suggests multi-threading plays.', array['Org chart mapping', 'Role and influence tagging', 'Multi-threading suggestions', 'LinkedIn Sales Navigator import', 'Account plan templates']),
(46, 'Sales', 'Renewal Radar', 139, 'Flags upcoming renewals with expansion potential or churn risk and drafts the outreach for each. Never miss a renewal date again.', array['Renewal calendar', 'Expansion signals', 'Churn risk flags', 'Outreach drafts', 'Contract date extraction']),
(47, 'Sales', 'Price Quote Assistant', 79, 'Produces accurate quotes with the right discounts and approvals for complex product bundles. Prevents margin leaks from manual pricing errors.', array['Bundle configuration', 'Discount guardrails', 'Approval routing', 'Margin calculation']),
(48, 'Sales', 'Win-Loss Analyzer', 119, 'Interviews lost and won prospects and finds the real reasons behind your results. Delivers a quarterly win-loss report with recommendations.', array['Automated win-loss interviews', 'Reason coding', 'Competitor comparisons', 'Quarterly report', 'Product feedback routing']),
-- Customer Support
(49, 'Customer Support', 'HelpDesk Hero', 149, 'Answers common support tickets instantly using your help centre and past resolutions. Hands tricky cases to a human with a full summary.', array['Instant answers from your help centre', 'Human handoff with summary', 'Zendesk and Freshdesk integration', 'Multilingual replies', 'Resolution rate reporting']),
(50, 'Customer Support', 'Ticket Triage', 89, 'Reads every incoming ticket, tags it, sets priority and routes it to the right team. Cuts first response times by hours.', array['Automatic tagging', 'Priority detection', 'Skill-based routing', 'SLA breach warnings']),
(51, 'Customer Support', 'Live Chat Concierge', 119, 'Handles website chat around the clock, answers product questions and captures leads when your team is offline. Sounds like your brand.', array['24/7 website chat', 'Product question answering', 'Lead capture', 'Brand voice settings', 'Chat transcript export']),
(52, 'Customer Support', 'Knowledge Base Builder', 99, 'Turns resolved tickets into help centre articles and keeps existing articles up to date. Finds gaps where customers keep asking the same question.', array['Article drafts from tickets', 'Content gap detection', 'Outdated article alerts', 'Help centre publishing']),
(53, 'Customer Support', 'Sentiment Monitor', 69, 'Scores the sentiment of every customer conversation and alerts managers to frustrated customers before they churn. Tracks trends by product area.', array['Conversation sentiment scoring', 'Escalation alerts', 'Trends by product area', 'Weekly CSAT predictions']),
(54, 'Customer Support', 'Refund Resolver', 79, 'Processes refund and return requests against your policy and approves the simple ones automatically. Escalates exceptions with a recommendation.', array['Policy-based approvals', 'Order lookup', 'Exception escalation', 'Stripe and Shopify refunds', 'Fraud pattern checks']),
(55, 'Customer Support', 'Voice Support Agent', 279, 'Answers phone calls with a natural voice, resolves routine requests and transfers complex calls with context. Reduces hold times to zero.', array['Natural voice conversations', 'Routine request resolution', 'Warm transfer with context', 'Call recording summaries', 'Twilio integration']),
(56, 'Customer Support', 'Macro Writer', 29, 'Writes and improves canned responses for your support team based on what actually resolves tickets. Keeps macros short and friendly.', array['Macro generation', 'Resolution-based improvements', 'Tone adjustments', 'Duplicate macro cleanup']),
(57, 'Customer Support', 'Onboarding Guide', 109, 'Walks new customers through setup with personalised in-app guidance and emails. Detects where users get stuck and nudges them forward.', array['Personalised setup checklists', 'Stuck user detection', 'In-app nudges', 'Onboarding completion analytics', 'Intercom integration']),
(58, 'Customer Support', 'QA Reviewer', 129, 'Reviews support conversations against your quality scorecard and gives agents specific coaching feedback. Scores 100% of tickets instead of a sample.', array['Full ticket coverage', 'Custom quality scorecards', 'Agent coaching notes', 'Team quality trends']),
(59, 'Customer Support', 'Community Moderator', 59, 'Moderates your community forum, answers common questions and flags spam or abusive posts. Highlights product ideas worth a look.', array['Spam and abuse filtering', 'Auto-answers common questions', 'Idea highlighting', 'Discourse and Discord support']),
(60, 'Customer Support', 'Status Page Writer', 39, 'Drafts clear, calm incident updates for your status page and customers during outages. Keeps updates consistent and on schedule.', array['Incident update drafts', 'Update reminders', 'Customer email notices', 'Post-incident summaries']),
-- Finance
(61, 'Finance', 'Invoice Autopilot', 99, 'Reads incoming invoices, extracts the line items and matches them to purchase orders. Sends approved invoices to your accounting software.', array['Invoice data extraction', 'Three-way PO matching', 'Approval workflows', 'QuickBooks and Xero sync', 'Duplicate invoice detection']),
(62, 'Finance', 'Expense Auditor', 79, 'Checks every expense report against your policy and flags duplicates, missing receipts and unusual spend. Approves the clean ones automatically.', array['Policy compliance checks', 'Receipt matching', 'Duplicate detection', 'Auto-approval rules']),
(63, 'Finance', 'Cash Flow Forecaster', 189, 'Projects your cash position 13 weeks ahead from bank feeds, receivables and payables. Warns you early about shortfalls.', array['13-week cash forecast', 'Bank feed connections', 'Shortfall warnings', 'Scenario modelling', 'CFO summary reports']),
(64, 'Finance', 'Month-End Closer', 249, 'Automates reconciliations, accrual suggestions and variance explanations so the books close days faster. Keeps an audit trail of every step.', array['Account reconciliations', 'Accrual suggestions', 'Variance explanations', 'Close checklist tracking', 'Audit trail']),
(65, 'Finance', 'Budget Buddy', 29, 'Tracks team budgets against actual spend and sends friendly alerts before anyone overspends. Perfect for department heads.', array['Budget vs actual tracking', 'Overspend alerts', 'Department views', 'Monthly summaries']),
(66, 'Finance', 'Tax Prep Assistant', 149, 'Organises transactions into tax categories and prepares the schedules your accountant needs. Highlights deductions you might have missed.', array['Transaction categorisation', 'Deduction suggestions', 'Accountant-ready exports', 'Multi-entity support']),
(67, 'Finance', 'Collections Agent', 119, 'Sends polite, escalating payment reminders for overdue invoices and offers payment plans when appropriate. Reduces days sales outstanding.', array['Escalating reminder sequences', 'Payment plan offers', 'Customer payment portal links', 'DSO tracking', 'Dispute flagging']),
(68, 'Finance', 'Subscription Metrics', 159, 'Calculates MRR, churn, expansion and LTV straight from your billing system. Investor-ready charts in minutes, not days.', array['MRR and ARR tracking', 'Churn and expansion metrics', 'LTV and CAC payback', 'Stripe and Chargebee sources', 'Investor update charts']),
(69, 'Finance', 'Fraud Sentinel', 299, 'Scores payments in real time for fraud risk and blocks suspicious transactions before they settle. Learns from your chargeback history.', array['Real-time risk scoring', 'Chargeback learning', 'Custom rule builder', 'Manual review queue', 'Payment processor integrations']),
(70, 'Finance', 'Procurement Advisor', 139, 'Compares supplier quotes, flags contract risks and recommends the best value vendor for each purchase request.', array['Quote comparison', 'Contract risk flags', 'Vendor scorecards', 'Purchase request intake']),
(71, 'Finance', 'Financial Report Writer', 169, 'Turns your trial balance into management reports with commentary on the key movements. Board packs ready in an afternoon.', array['Management report generation', 'Variance commentary', 'Board pack templates', 'Excel and PDF export', 'KPI definitions library']),
(72, 'Finance', 'Payroll Checker', 69, 'Double-checks every payroll run for errors in hours, rates, deductions and new starter details before it is submitted.', array['Pre-submission payroll checks', 'Rate and hours validation', 'Deduction anomaly detection', 'Gusto and ADP support']),
-- Demo seller drafts and archived agents
(73, 'Marketing', 'Referral Engine (beta)', 69, 'Designs and runs a customer referral programme with tracked links and automatic rewards. Still being tested with early customers.', array['Tracked referral links', 'Automatic reward payouts', 'Fraud checks', 'Referral leaderboard']),
(74, 'Data Analysis', 'KPI Tree Builder', 109, 'Breaks your north star metric into a tree of drivers and shows which lever moves it most. Draft listing awaiting screenshots.', array['Metric tree editor', 'Driver sensitivity analysis', 'Goal setting', 'Dashboard embeds']),
(75, 'Sales', 'Cold Call Trainer', 59, 'Role-plays cold calls with your reps and scores their openers, discovery questions and objection handling. Retired in favour of Objection Handler.', array['Realistic call role-play', 'Opener scoring', 'Discovery question feedback', 'Progress tracking']);

-- Sellers in rotation: (n - 1) % 6 = 0 → demo_seller, so every seller has 2 agents per category.
insert into public.agents (id, name, description, price, category, thumbnail_url, images, features, seller_id, status, created_at, updated_at)
select
  ('a0000000-0000-4000-8000-' || lpad(s.n::text, 12, '0'))::uuid,
  s.name,
  s.description,
  s.price,
  s.category,
  t.artwork,
  case when s.n % 2 = 0
    then array[t.artwork, '/thumbnails/' || t.slug || '-' || (t.k % 6 + 1) || '.svg', '/thumbnails/' || t.slug || '-' || ((t.k + 1) % 6 + 1) || '.svg']
    else array[t.artwork, '/thumbnails/' || t.slug || '-' || ((t.k + 2) % 6 + 1) || '.svg']
  end,
  s.features,
  (array[
    '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000011',
    '00000000-0000-4000-8000-000000000012', '00000000-0000-4000-8000-000000000013',
    '00000000-0000-4000-8000-000000000014', '00000000-0000-4000-8000-000000000015'
  ]::uuid[])[case when s.n > 72 then 1 else (s.n - 1) % 6 + 1 end],
  case s.n when 73 then 'draft' when 74 then 'draft' when 75 then 'archived' else 'published' end,
  t.created_at,
  t.created_at + case when s.n % 5 = 0 then make_interval(days => 2) else interval '0' end
from seed_agents s
cross join lateral (
  select
    lower(replace(s.category, ' ', '-')) as slug,
    ((s.n - 1) % 12) % 6 + 1 as k,
    case s.n
      when 75 then now() - interval '172 days'
      when 73 then now() - interval '6 days'
      when 74 then now() - interval '2 days'
      else now() - make_interval(days => (s.n * 53) % 175 + 3, hours => (s.n * 7) % 24)
    end as created_at,
    -- The agent's generated picture (app/lib/agent-artwork.ts draws it; agentArtworkPath builds
    -- the same path): category, the id's last 12 digits, the name's words joined by '-' (every
    -- seeded name is shorter than the 60 characters the app keeps).
    '/artwork/' || lower(replace(s.category, ' ', '-')) || '/' || lpad(s.n::text, 12, '0') || '/' || (
      select coalesce(string_agg(m.word[1], '-' order by m.position), 'Agent')
      from regexp_matches(s.name, '[A-Za-z0-9]+', 'g') with ordinality as m(word, position)
    ) || '.svg' as artwork
) t;

-- ---------------------------------------------------------------------------------------------
-- Packages: every agent ships version 1.0.0, a small JSON manifest (its prompts, tools and
-- configuration) at <seller_id>/<agent_id>/<version>/<slug>.json in the private 'agent-packages'
-- bucket, where every package lives (migration 20261130000100_package_paths.sql). file_size 0:
-- not written yet. The embedded backend writes the files on first start
-- (supabase/demo-packages.ts); on another server `npm run db:seed-packages`.
-- A few agents have a second version, so changelogs and earlier downloads have something to show.
-- ---------------------------------------------------------------------------------------------
insert into public.agent_versions (id, agent_id, version, release_notes, file_path, file_name, content_type, file_size, created_at)
select
  md5('version-1-' || a.id)::uuid, a.id, '1.0.0', 'Initial release.',
  a.seller_id || '/' || a.id || '/1.0.0/' || v.slug || '.json', v.slug || '-1.0.0.json', 'application/json', 0, a.created_at
from public.agents a
cross join lateral (select trim(both '-' from regexp_replace(lower(a.name), '[^a-z0-9]+', '-', 'g')) as slug) v;

insert into public.agent_versions (id, agent_id, version, release_notes, file_path, file_name, content_type, file_size, created_at)
select
  md5('version-2-' || a.id)::uuid, a.id, '1.1.0', 'Faster responses, clearer setup instructions and two new configuration options.',
  a.seller_id || '/' || a.id || '/1.1.0/' || v.slug || '.json', v.slug || '-1.1.0.json', 'application/json', 0,
  a.created_at + (now() - a.created_at) * 0.8
from public.agents a
cross join lateral (select trim(both '-' from regexp_replace(lower(a.name), '[^a-z0-9]+', '-', 'g')) as slug) v
where pg_temp.h('second-version-' || a.id) % 4 = 0;

-- Sellers state how soon they usually reply (shown in Contact Seller); one leaves it unset.
update public.users set response_time_hours = d.hours
from (values ('demo_seller', 2), ('nova_labs', 4), ('quillworks', 24), ('ledgerlogic', 12), ('pipeline_pros', 1)) as d(username, hours)
where public.users.username = d.username;

-- Most sellers trade under a display name (the storefront, cards and the agent page show it, as
-- their privacy allows); demo_seller has none, so it is named by its username.
update public.users set display_name = d.name
from (values ('nova_labs', 'Nova Labs'), ('quillworks', 'Quillworks Studio'), ('ledgerlogic', 'LedgerLogic'),
  ('pipeline_pros', 'Pipeline Pros'), ('carecraft_ai', 'CareCraft AI')) as d(username, name)
where public.users.username = d.username;

-- ---------------------------------------------------------------------------------------------
-- Purchases
-- ---------------------------------------------------------------------------------------------
-- The demo buyer: 6 completed (one of an agent archived since), 1 pending, 1 failed, 1 refunded.
insert into public.purchases (id, buyer_id, agent_id, seller_id, list_price, amount, status, payment_intent_id, created_at, updated_at)
select
  ('b0000000-0000-4000-8000-' || lpad(d.n::text, 12, '0'))::uuid,
  '00000000-0000-4000-8000-000000000001',
  a.id, a.seller_id, a.price, a.price, d.status,
  'pi_demo_' || substr(md5('demo-buyer-' || d.n), 1, 20),
  a.created_at + (now() - a.created_at) * d.frac,
  a.created_at + (now() - a.created_at) * d.frac + interval '2 minutes'
from (values
  (1, 'completed', 0.30), (14, 'completed', 0.55), (27, 'completed', 0.40), (40, 'completed', 0.70),
  (55, 'completed', 0.85), (75, 'completed', 0.10), (63, 'pending', 0.97), (8, 'failed', 0.90),
  (21, 'refunded', 0.60)
) as d(n, status, frac)
join public.agents a on a.id = ('a0000000-0000-4000-8000-' || lpad(d.n::text, 12, '0'))::uuid;

-- Ten buyers, about one purchase in five of the published agents.
insert into public.purchases (id, buyer_id, agent_id, seller_id, list_price, amount, status, payment_intent_id, created_at, updated_at)
select
  md5('purchase-' || b.id || '-' || a.id)::uuid,
  b.id, a.id, a.seller_id, a.price, a.price,
  case pg_temp.h('status-' || b.id || a.id) % 20
    when 0 then 'refunded' when 1 then 'failed' when 2 then 'pending' when 3 then 'pending'
    else 'completed'
  end,
  'pi_' || substr(md5('intent-' || b.id || a.id), 1, 24),
  a.created_at + (now() - a.created_at) * (0.05 + (pg_temp.h('when-' || b.id || a.id) % 90) / 100.0),
  a.created_at + (now() - a.created_at) * (0.05 + (pg_temp.h('when-' || b.id || a.id) % 90) / 100.0) + interval '1 minute'
from seed_accounts b
cross join public.agents a
where b.username not in ('demo_buyer', 'demo_seller', 'ada_lovelace')
  and b.user_type = 'buyer'
  and a.status = 'published'
  and pg_temp.h('buy-' || b.id || a.id) % 5 = 0;

-- A few sales for the demo seller from other sellers, so the seller dashboard has variety.
insert into public.purchases (id, buyer_id, agent_id, seller_id, list_price, amount, status, payment_intent_id, created_at, updated_at)
select
  md5('purchase-' || b.id || '-' || a.id)::uuid,
  b.id, a.id, a.seller_id, a.price, a.price, 'completed',
  'pi_' || substr(md5('intent-' || b.id || a.id), 1, 24),
  a.created_at + (now() - a.created_at) * 0.5,
  a.created_at + (now() - a.created_at) * 0.5 + interval '1 minute'
from (values ('00000000-0000-4000-8000-000000000011'::uuid), ('00000000-0000-4000-8000-000000000014'::uuid)) as b(id)
join public.agents a on a.id in ('a0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000037');

-- ---------------------------------------------------------------------------------------------
-- Reviews (only for completed purchases; the reviews trigger refuses anything else)
-- ---------------------------------------------------------------------------------------------
insert into public.reviews (id, agent_id, buyer_id, rating, review_text, created_at, updated_at)
select
  ('c0000000-0000-4000-8000-' || lpad(d.n::text, 12, '0'))::uuid,
  p.agent_id, p.buyer_id, d.rating, d.review_text,
  least(now() - interval '1 hour', p.created_at + interval '3 days'),
  least(now() - interval '1 hour', p.created_at + interval '3 days')
from (values
  (1, 5, 'CampaignPilot took over our weekly budget shuffling and our cost per acquisition dropped by a fifth in the first month. Setup took an afternoon.'),
  (14, 4, 'Caught a tracking outage on our checkout funnel hours before anyone noticed. A few false alarms during holidays, but the sensitivity settings help.'),
  (27, 5, 'Show notes and chapters used to take me half a day per episode. Now I review what Podcast Producer writes over coffee and publish.')
) as d(n, rating, review_text)
join public.purchases p
  on p.buyer_id = '00000000-0000-4000-8000-000000000001'
 and p.agent_id = ('a0000000-0000-4000-8000-' || lpad(d.n::text, 12, '0'))::uuid
 and p.status = 'completed';

with texts(rating, body) as (
  select 5, array[
    'Exactly what we needed. It was running in production the same day and has saved our team hours every week.',
    'Outstanding. The results are accurate, the setup guide is clear and support answered my one question within the hour.',
    'We tried three alternatives before this one. It is the only agent that actually understood our workflow out of the box.',
    'Paid for itself in the first week. I would happily pay double.',
    'Reliable, fast and easy to configure. The weekly reports alone are worth the price.',
    'Our whole team uses it daily now. The integrations worked on the first try.'
  ]
  union all select 4, array[
    'Very solid agent. A couple of settings took some trial and error, but the output quality is excellent.',
    'Does what it promises and does it well. I would love more export options, but overall a great purchase.',
    'Good value for the price. Saves me a few hours every week, and updates keep adding useful features.',
    'Works well for our use case. Documentation could go deeper on advanced configuration.',
    'Impressive results after a short learning period. Support was friendly and quick.',
    'Nearly perfect. Occasionally needs a manual nudge on edge cases, but it handles the routine work brilliantly.'
  ]
  union all select 3, array[
    'Decent, but it needed more tuning than I expected before the results were usable.',
    'Useful core features. The setup was confusing and a couple of integrations were missing for us.',
    'It works, but it is a bit slow with larger workloads. Fine for small teams.',
    'Mixed feelings: great when it works, but I still double-check most of its output.'
  ]
  union all select 2, array[
    'Did not fit our workflow. The defaults are hard to change and support was slow to respond.',
    'Promising idea, but too many errors in the output for us to rely on it yet.',
    'Overpriced for what it does. We went back to our old process.'
  ]
  union all select 1, array[
    'Could not get it to work with our setup, and the documentation did not help.',
    'The agent stopped working after a week and we never got a clear answer from the seller.',
    'Not what the description suggested. Requested a refund.'
  ]
),
candidates as (
  select p.*,
    case pg_temp.h('rating-' || p.id) % 20
      when 0 then 1 when 1 then 2 when 2 then 3 when 3 then 3
      when 4 then 4 when 5 then 4 when 6 then 4 when 7 then 4 when 8 then 4 when 9 then 4
      else 5
    end as rating
  from public.purchases p
  where p.status = 'completed'
    and p.buyer_id <> '00000000-0000-4000-8000-000000000001'
    and pg_temp.h('review-' || p.id) % 10 < 7
)
insert into public.reviews (id, agent_id, buyer_id, rating, review_text, created_at, updated_at)
select
  md5('review-' || c.id)::uuid,
  c.agent_id, c.buyer_id, c.rating,
  t.body[pg_temp.h('text-' || c.id) % array_length(t.body, 1) + 1],
  least(now() - interval '1 hour', c.created_at + make_interval(days => 1 + pg_temp.h('reviewed-' || c.id) % 10)),
  least(now() - interval '1 hour', c.created_at + make_interval(days => 1 + pg_temp.h('reviewed-' || c.id) % 10))
from candidates c
join texts t on t.rating = c.rating;

-- ---------------------------------------------------------------------------------------------
-- Downloads, newsletter
-- ---------------------------------------------------------------------------------------------
insert into public.downloads (id, purchase_id, agent_id, buyer_id, version_id, created_at)
select
  md5('download-' || p.id || '-' || g)::uuid, p.id, p.agent_id, p.buyer_id, md5('version-1-' || p.agent_id)::uuid,
  least(now() - interval '1 minute', p.created_at + make_interval(hours => g * 5))
from public.purchases p
cross join lateral generate_series(1, 1 + pg_temp.h('downloads-' || p.id) % 3) as g
where p.status = 'completed';

insert into public.newsletter_subscribers (id, email, created_at) values
  ('d0000000-0000-4000-8000-000000000001', 'newsletter.fan@demo.test', now() - interval '40 days'),
  ('d0000000-0000-4000-8000-000000000002', 'priya.shah@demo.test', now() - interval '12 days'),
  ('d0000000-0000-4000-8000-000000000003', 'updates@example.com', now() - interval '3 days');

-- ---------------------------------------------------------------------------------------------
-- Subscriptions (ADR 018): the members whose spending had earned them a tier under ADR 005 hold
-- that plan as a test-mode subscription, started some days ago, with its first month's charge.
-- ---------------------------------------------------------------------------------------------
with spending as (
  select buyer_id, sum(amount) as spent
  from public.purchases
  where status = 'completed' and buyer_id is not null
  group by buyer_id
  having sum(amount) >= 1000
), plans as (
  select
    buyer_id,
    case when spent >= 2000 then 'enterprise' else 'premium' end as tier,
    date_trunc('second', now()) - make_interval(days => 3 + pg_temp.h('subscribed-' || buyer_id) % 20) as started
  from spending
)
insert into public.subscriptions (id, user_id, tier, status, current_period_start, current_period_end, provider,
  provider_subscription_id, provider_customer_id, created_at, updated_at)
select
  md5('subscription-' || buyer_id)::uuid, buyer_id, tier, 'active', started, started + interval '1 month', 'test',
  'sub_demo_' || left(md5('subscription-' || buyer_id), 24), 'cus_demo_' || left(md5('customer-' || buyer_id), 24),
  started, started
from plans;

-- A member pays the tier's price from the day they subscribed: every purchase since then records
-- the tier's discount (10 % Premium, 20 % Enterprise, rounded to the cent as the app rounds), so
-- what Billing, Purchases and Membership show (amounts, savings) follows from these rows.
update public.purchases p
set
  discount_percent = d.percent,
  discount_amount = round(p.list_price * d.percent / 100, 2),
  amount = p.list_price - round(p.list_price * d.percent / 100, 2)
from public.subscriptions s
cross join lateral (select case s.tier when 'enterprise' then 20 else 10 end as percent) d
where p.buyer_id = s.user_id and p.created_at >= s.current_period_start;

insert into public.subscription_charges (id, user_id, subscription_id, tier, kind, description, amount, status,
  period_start, period_end, provider, provider_payment_id, idempotency_key, created_at, updated_at)
select
  md5('subscription-charge-' || s.id)::uuid, s.user_id, s.id, s.tier, 'subscription',
  case s.tier when 'enterprise' then 'Enterprise membership - monthly' else 'Premium membership - monthly' end,
  case s.tier when 'enterprise' then 99 else 19 end, 'paid', s.current_period_start, s.current_period_end, 'test',
  'pi_demo_' || left(md5('subscription-charge-' || s.id), 24), 'seed-' || s.id, s.created_at, s.created_at
from public.subscriptions s;

drop table seed_agents;
drop table seed_accounts;

-- The demo's sellers accepted the Seller Policy in force when they became sellers (ADR 069); every
-- account accepted the Terms and the Privacy Policy on sign-up (a trigger records that). (On a
-- database migrated only part of the way, as an upgrade test makes one, the policies' migration
-- records the same when it runs.)
do $$
begin
  if pg_catalog.to_regclass('public.policy_acceptances') is not null then
    insert into public.policy_acceptances (user_id, document, version)
    select u.id, c.document, c.version
    from public.users u
    join public.current_policies c on c.document = 'seller'
    where u.user_type in ('seller', 'admin')
    on conflict do nothing;
  end if;
end
$$;
